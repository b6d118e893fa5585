-- A storage relation inside a parallel plan: a worker (or the leader in
-- parallel mode) opens it and reads the catalog without a new snapshot.
\set VERBOSITY terse
SELECT cfstore.create_keyspace('Par');
SELECT cfstore.create_column_family('Par', 'C', comparator => 'UTF8Type', key_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('Par', 'C', 'k' || i, 'c' || i, 'v' || i, writetime => 1))
  FROM generate_series(1, 200) i;
SELECT cfstore.verify('Par', 'C');
SELECT cfstore._storage_relation('Par', 'C') AS par_rel \gset
CREATE TABLE par_keys AS SELECT 'k' || i AS k FROM generate_series(1, 2000) i;
ANALYZE par_keys;
-- plans, with the storage relation's name (which carries the id) masked
CREATE FUNCTION par_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    RETURN NEXT regexp_replace(line, 'cf_[0-9]+', 'cf_N');
  END LOOP;
END $$;

-- the whole query in a worker
SET force_parallel_mode = on;
SELECT par_plan(format('SELECT count(*) FROM %s', :'par_rel'));
SELECT count(*), min(convert_from(column_name, 'UTF8')) FROM :par_rel;
RESET force_parallel_mode;

-- a parallel join whose workers each scan the storage relation whole
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT par_plan(format('SELECT count(*) FROM par_keys JOIN %s r ON convert_to(par_keys.k, ''UTF8'') = r.key', :'par_rel'));
SELECT count(*) FROM par_keys JOIN :par_rel r ON convert_to(par_keys.k, 'UTF8') = r.key;
RESET ALL;

DROP TABLE par_keys;
DROP FUNCTION par_plan(text);
SELECT cfstore.drop_keyspace('Par');
