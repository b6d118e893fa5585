-- Included by the regression tests that count what VACUUM removes.  VACUUM
-- removes only what no snapshot can need: autovacuum_quiet() waits (up to
-- 30 s) until no autovacuum worker, which may run ANALYZE somewhere at any
-- time, holds an xmin, so that such counts do not depend on its timing.
CREATE FUNCTION autovacuum_quiet() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..600 LOOP
    PERFORM pg_stat_clear_snapshot();
    IF NOT EXISTS (SELECT 1 FROM pg_stat_activity
                    WHERE backend_type = 'autovacuum worker' AND backend_xmin IS NOT NULL) THEN
      RETURN true;
    END IF;
    PERFORM pg_sleep(0.05);
  END LOOP;
  RETURN false;
END $$;
