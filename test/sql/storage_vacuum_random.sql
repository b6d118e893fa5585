-- VACUUM never changes what a read returns: thousands of random writes
-- (out-of-order timestamps, column, super column and row deletions, TTLs
-- that expire, counters and their removal, versions of rolled-back
-- subtransactions) into rows that span pages, then every row read whole,
-- backwards and from a start bound, before and after VACUUM and VACUUM
-- FREEZE, with gc_grace_seconds 0 so that tombstones go too.
\set VERBOSITY terse

-- VACUUM removes only what no snapshot can need (autovacuum_quiet)
\i test/sql/include/autovacuum_quiet.sql
SELECT cfstore.create_keyspace('VacRnd');
SELECT cfstore.create_column_family('VacRnd', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.create_column_family('VacRnd', 'Sup', column_type => 'Super', comparator => 'UTF8Type',
         subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type',
         default_validation_class => 'UTF8Type', gc_grace_seconds => 0);
SELECT cfstore.create_column_family('VacRnd', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType', gc_grace_seconds => 0);
SELECT cfstore._storage_relation('VacRnd', 'Std') AS std_rel \gset
SELECT cfstore._storage_relation('VacRnd', 'Sup') AS sup_rel \gset
SELECT cfstore._storage_relation('VacRnd', 'Cnt') AS cnt_rel \gset
-- and no autovacuum compacts them before the counts below are taken (a slow
-- run, under valgrind, gives it the time)
ALTER TABLE :std_rel SET (autovacuum_enabled = off);
ALTER TABLE :sup_rel SET (autovacuum_enabled = off);
ALTER TABLE :cnt_rel SET (autovacuum_enabled = off);

SELECT setseed(0.42);
DO $$
DECLARE
  r double precision;
  k text;
BEGIN
  FOR i IN 1..6000 LOOP
    r := random();
    k := 'r' || (random() * 30)::int;
    IF r < 0.55 THEN
      PERFORM cfstore.insert('VacRnd', 'Std', k, 'c' || lpad((random() * 400)::int::text, 3, '0'),
                             repeat(chr(97 + (random() * 25)::int), 10 + (random() * 60)::int),
                             writetime => (random() * 1000)::bigint);
    ELSIF r < 0.65 THEN
      PERFORM cfstore.remove('VacRnd', 'Std', k, 'c' || lpad((random() * 400)::int::text, 3, '0'),
                             writetime => (random() * 1000)::bigint);
    ELSIF r < 0.66 THEN
      PERFORM cfstore.remove('VacRnd', 'Std', k, writetime => (random() * 600)::bigint);
    ELSIF r < 0.72 THEN
      PERFORM cfstore.insert('VacRnd', 'Std', k, 'c' || lpad((random() * 400)::int::text, 3, '0'),
                             'expiring', ttl => 1, writetime => (random() * 1000)::bigint);
    ELSIF r < 0.76 THEN
      BEGIN
        PERFORM cfstore.insert('VacRnd', 'Std', k, 'c' || lpad((random() * 400)::int::text, 3, '0'),
                               'rolled back', writetime => 2000);
        RAISE EXCEPTION 'roll back';
      EXCEPTION WHEN raise_exception THEN NULL;
      END;
    ELSIF r < 0.86 THEN
      PERFORM cfstore.insert('VacRnd', 'Sup', k, 'c' || (random() * 20)::int, 'v' || i,
                             super_column => 's' || (random() * 10)::int, writetime => (random() * 1000)::bigint);
    ELSIF r < 0.88 THEN
      PERFORM cfstore.remove('VacRnd', 'Sup', k, super_column => 's' || (random() * 10)::int,
                             writetime => (random() * 1000)::bigint);
    ELSIF r < 0.885 THEN
      PERFORM cfstore.remove('VacRnd', 'Sup', k, writetime => (random() * 500)::bigint);
    ELSIF r < 0.98 THEN
      PERFORM cfstore.add('VacRnd', 'Cnt', k, 'n' || (random() * 5)::int, (random() * 100)::bigint - 30);
    ELSE
      PERFORM cfstore.remove_counter('VacRnd', 'Cnt', k, 'n' || (random() * 5)::int);
    END IF;
  END LOOP;
END $$;
SELECT leaf_pages > 10 AS rows_span_pages FROM cfstore.stats('VacRnd', 'Std');

-- every read of every row, as one fingerprint per column family and kind
CREATE FUNCTION vacrnd_reads() RETURNS TABLE (what text, fingerprint text) LANGUAGE sql AS $$
  SELECT cf || ' ' || kind, md5(string_agg(line, E'\n' ORDER BY k, n))
  FROM (
    SELECT 'Std' AS cf, 'whole' AS kind, k, n, s::text AS line
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Std', 'r' || k, count => 100000) s) x
    UNION ALL
    SELECT 'Std', 'reversed 7', k, n, s::text
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Std', 'r' || k, reversed => true, count => 7) s) x
    UNION ALL
    SELECT 'Std', 'from c200', k, n, s::text
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Std', 'r' || k, start => 'c200', count => 25) s) x
    UNION ALL
    SELECT 'Sup', 'whole', k, n, s::text
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Sup', 'r' || k, count => 100000) s) x
    UNION ALL
    SELECT 'Sup', 's5', k, n, s::text
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Sup', 'r' || k, super_column => 's5', reversed => true) s) x
    UNION ALL
    SELECT 'Cnt', 'whole', k, n, s::text
      FROM generate_series(0, 30) k,
           LATERAL (SELECT s, row_number() OVER () AS n FROM cfstore.get_slice('VacRnd', 'Cnt', 'r' || k) s) x
  ) lines
  GROUP BY 1
$$;

-- the TTLs expire and gc_grace_seconds (0) passes before the first look
SELECT pg_sleep(1.1);
CREATE TABLE vacrnd_before AS SELECT * FROM vacrnd_reads();
CREATE TABLE vacrnd_scan_before AS
  SELECT md5(string_agg(t::text, E'\n' ORDER BY t.key, t.super_column, t.column_name)) AS std,
         (SELECT count(*) FROM :sup_rel) AS sup_cells
    FROM :std_rel t;
SELECT cell_versions AS std_versions FROM cfstore.stats('VacRnd', 'Std') \gset
SELECT cell_versions AS sup_versions FROM cfstore.stats('VacRnd', 'Sup') \gset
SELECT cell_versions AS cnt_versions FROM cfstore.stats('VacRnd', 'Cnt') \gset

SELECT autovacuum_quiet();
VACUUM :std_rel, :sup_rel, :cnt_rel;
SELECT b.what, a.fingerprint = b.fingerprint AS same_after_vacuum
  FROM vacrnd_before b JOIN vacrnd_reads() a USING (what) ORDER BY 1;
SELECT md5(string_agg(t::text, E'\n' ORDER BY t.key, t.super_column, t.column_name)) = (SELECT std FROM vacrnd_scan_before) AS same_scan,
       (SELECT count(*) FROM :sup_rel) = (SELECT sup_cells FROM vacrnd_scan_before) AS same_sup_count
  FROM :std_rel t;
-- it did remove things: fewer versions in each column family
SELECT (SELECT cell_versions FROM cfstore.stats('VacRnd', 'Std')) < :std_versions AS std_compacted,
       (SELECT cell_versions FROM cfstore.stats('VacRnd', 'Sup')) < :sup_versions AS sup_compacted,
       (SELECT cell_versions FROM cfstore.stats('VacRnd', 'Cnt')) < :cnt_versions AS cnt_compacted;
SELECT cfstore.verify('VacRnd', 'Std'), cfstore.verify('VacRnd', 'Sup'), cfstore.verify('VacRnd', 'Cnt');

-- a second VACUUM and a VACUUM FREEZE change nothing either
SELECT autovacuum_quiet();
VACUUM :std_rel, :sup_rel, :cnt_rel;
SELECT autovacuum_quiet();
VACUUM (FREEZE) :std_rel, :sup_rel, :cnt_rel;
SELECT b.what, a.fingerprint = b.fingerprint AS same_after_freeze
  FROM vacrnd_before b JOIN vacrnd_reads() a USING (what) ORDER BY 1;
SELECT cfstore.verify('VacRnd', 'Std'), cfstore.verify('VacRnd', 'Sup'), cfstore.verify('VacRnd', 'Cnt');

DROP TABLE vacrnd_before, vacrnd_scan_before;
DROP FUNCTION vacrnd_reads();
DROP FUNCTION autovacuum_quiet();
SELECT cfstore.drop_keyspace('VacRnd');
