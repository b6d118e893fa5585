-- The scan node that stands in for get_slice in FROM (src/api/cfscan.c):
-- where the planner uses it, that it returns what the function returns
-- (every column, conditions on columns it does not return, LATERAL
-- parameters, rescans, cursors), and where the function scan stays.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('ApiScan');
SELECT cfstore.create_column_family('ApiScan', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiScan', 'Cnt', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'CounterColumnType');
SELECT cfstore.create_column_family('ApiScan', 'Sup', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'UTF8Type', key_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ApiScan', 'Std', 'k' || r, 'c' || c, 'v' || r || '.' || c, writetime => c))
  FROM generate_series(1, 3) r, generate_series(1, 5) c;
SELECT cfstore.insert('ApiScan', 'Std', 'k1', 'c9', 'expiring', writetime => 9, ttl => 1000);
SELECT cfstore.add('ApiScan', 'Cnt', 'k1', 'a', 5);
SELECT cfstore.add('ApiScan', 'Cnt', 'k1', 'b', -2);
SELECT cfstore.insert('ApiScan', 'Sup', 'k1', 'x', 'v1', super_column => 's1', writetime => 1);
SELECT cfstore.insert('ApiScan', 'Sup', 'k1', 'y', 'v2', super_column => 's1', writetime => 1);
SELECT cfstore.insert('ApiScan', 'Sup', 'k1', 'x', 'v3', super_column => 's2', writetime => 1);

-- the plans
CREATE FUNCTION scan_plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF, VERBOSE) ' || q LOOP
    RETURN NEXT line;
  END LOOP;
END $$;
SELECT scan_plan($q$SELECT * FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s$q$);
SELECT scan_plan($q$SELECT k, s.column_name FROM (VALUES ('k1'), ('k3')) v(k),
                    LATERAL cfstore.get_slice('ApiScan', 'Std', v.k, reversed => true, count => 2) s$q$);
SELECT scan_plan($q$SELECT column_name FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s WHERE value LIKE '%.3'$q$);
-- a whole-row reference or ORDINALITY keeps the function scan, as does the switch
SELECT scan_plan($q$SELECT s FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s$q$);
SELECT scan_plan($q$SELECT n FROM cfstore.get_slice('ApiScan', 'Std', 'k1') WITH ORDINALITY s(a, b, c, d, e, f, n)$q$);
SET cfstore.enable_slice_scan = off;
SELECT scan_plan($q$SELECT * FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s$q$);
RESET cfstore.enable_slice_scan;

-- the rows: every column, each column alone, conditions, counters, super columns
SELECT * FROM cfstore.get_slice('ApiScan', 'Std', 'k1');
SELECT ttl, key FROM cfstore.get_slice('ApiScan', 'Std', 'k1', reversed => true, count => 2);
SELECT writetime FROM cfstore.get_slice('ApiScan', 'Std', 'k2', start => 'c2', finish => 'c3');
SELECT column_name FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s WHERE value LIKE '%.3';
SELECT count(*) FROM cfstore.get_slice('ApiScan', 'Std', 'k3');
SELECT s FROM cfstore.get_slice('ApiScan', 'Std', 'k1', count => 2) s;
SELECT * FROM cfstore.get_slice('ApiScan', 'Cnt', 'k1');
SELECT * FROM cfstore.get_slice('ApiScan', 'Sup', 'k1');
SELECT value, super_column FROM cfstore.get_slice('ApiScan', 'Sup', 'k1', super_column => 's1', reversed => true);
-- LATERAL: the slice is opened again for every key
SELECT k, s.column_name, s.value FROM (VALUES ('k1'), ('k3'), ('none'), ('k2')) v(k),
       LATERAL cfstore.get_slice('ApiScan', 'Std', v.k, reversed => true, count => 2) s;
SELECT v.k, count(s.column_name) FROM (VALUES ('k1'), ('none')) v(k)
  LEFT JOIN LATERAL cfstore.get_slice('ApiScan', 'Std', v.k, count => 3) s ON true GROUP BY v.k ORDER BY v.k;
-- a slice read again without new parameters, and one stopped early
SELECT count(*) FROM generate_series(1, 3) g, cfstore.get_slice('ApiScan', 'Std', 'k2') s;
SELECT column_name FROM cfstore.get_slice('ApiScan', 'Std', 'k2') LIMIT 2;
-- a scrollable cursor
BEGIN;
DECLARE c SCROLL CURSOR FOR SELECT column_name FROM cfstore.get_slice('ApiScan', 'Std', 'k2');
FETCH 2 FROM c;
FETCH BACKWARD 1 FROM c;
FETCH ALL FROM c;
COMMIT;
-- a cursor read across writes of the same transaction sees the cells as of its start
BEGIN;
DECLARE c CURSOR FOR SELECT column_name, value FROM cfstore.get_slice('ApiScan', 'Std', 'k3');
FETCH 2 FROM c;
SELECT cfstore.insert('ApiScan', 'Std', 'k3', 'c4', 'rewritten', writetime => 100);
SELECT cfstore.insert('ApiScan', 'Std', 'k3', 'c45', 'new', writetime => 100);
FETCH ALL FROM c;
ROLLBACK;

-- errors are the function's, raised when the scan starts
SELECT * FROM cfstore.get_slice('ApiScan', 'Nope', 'k1');
SELECT * FROM cfstore.get_slice('ApiScan', 'Std', 'k1', count => -1);
SELECT * FROM cfstore.get_slice('ApiScan', 'Std', NULL::text);
SELECT k, s.column_name FROM (VALUES ('k1'), ('')) v(k),
       LATERAL cfstore.get_slice('ApiScan', 'Std', v.k, count => 1) s;
-- the EXECUTE privilege on get_slice is checked as for the function
CREATE ROLE api_scan_reader;
GRANT USAGE ON SCHEMA cfstore TO api_scan_reader;
DO $$ BEGIN EXECUTE format('GRANT SELECT ON %s TO api_scan_reader', cfstore._storage_relation('ApiScan', 'Std')); END $$;
REVOKE EXECUTE ON FUNCTION cfstore.get_slice(text, text, "any", "any", "any", boolean, integer, "any") FROM PUBLIC;
SET ROLE api_scan_reader;
SELECT count(*) FROM cfstore.get_slice('ApiScan', 'Std', 'k1');
RESET ROLE;
GRANT EXECUTE ON FUNCTION cfstore.get_slice(text, text, "any", "any", "any", boolean, integer, "any") TO PUBLIC;
SET ROLE api_scan_reader;
SELECT count(*) FROM cfstore.get_slice('ApiScan', 'Std', 'k1');
RESET ROLE;
DO $$ BEGIN EXECUTE format('REVOKE SELECT ON %s FROM api_scan_reader', cfstore._storage_relation('ApiScan', 'Std')); END $$;
REVOKE USAGE ON SCHEMA cfstore FROM api_scan_reader;
DROP ROLE api_scan_reader;
-- a SECURITY DEFINER wrapper is a different call: the function scan runs it
ALTER FUNCTION cfstore.get_slice(text, text, "any", "any", "any", boolean, integer, "any") SECURITY DEFINER;
SELECT scan_plan($q$SELECT * FROM cfstore.get_slice('ApiScan', 'Std', 'k1') s$q$);
ALTER FUNCTION cfstore.get_slice(text, text, "any", "any", "any", boolean, integer, "any") SECURITY INVOKER;

-- UTF8Type values are returned as their own bytes once checked: values
-- written while the column family took BytesType are checked on the way
-- out (a NUL or an invalid sequence, within the first 8 bytes or after)
SELECT cfstore.create_column_family('ApiScan', 'Raw', comparator => 'UTF8Type');
SELECT cfstore.insert('ApiScan', 'Raw', 'ascii16', 'c', '\x41424344454647484142434445464748'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'ascii3', 'c', '\x414243'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'utf8', 'c', convert_to('déjà vu, 8+ bytes', 'UTF8'), writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'nulword', 'c', '\x41424300454647484950'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'nultail', 'c', '\x414243444546474849500051'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'badword', 'c', '\x4142c08045464748495051'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Raw', 'badtail', 'c', '\x414243444546474849c080'::bytea, writetime => 1);
SELECT cfstore.update_column_family('ApiScan', 'Raw', default_validation_class => 'UTF8Type');
SELECT k, s.value FROM unnest(ARRAY['ascii16', 'ascii3', 'utf8']) k, cfstore.get_slice('ApiScan', 'Raw', k) s;
SELECT (cfstore.get_slice('ApiScan', 'Raw', 'utf8')).value;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Raw', 'nulword') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Raw', 'nultail') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Raw', 'badword') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Raw', 'badtail') s;
SELECT (cfstore.get_slice('ApiScan', 'Raw', 'badtail')).value;

-- values Cassandra's UTF-8 validator takes but text cannot hold (a NUL, the
-- two-byte NUL C0 80) are stored, and refused when read as text, through
-- the slice scan and through the foreign table; 8 bytes of plain ASCII and
-- more pass
SELECT cfstore.create_column_family('ApiScan', 'Utf', comparator => 'UTF8Type',
         default_validation_class => 'UTF8Type');
SELECT cfstore.insert('ApiScan', 'Utf', 'ok', 'c', 'plain ascii, 8+ bytes', writetime => 1);
SELECT cfstore.insert('ApiScan', 'Utf', 'del', 'c', '\x7f7e20217f7e20217f'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Utf', 'nul', 'c', '\x4142434445464748004a'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Utf', 'c080', 'c', '\x41c080'::bytea, writetime => 1);
SELECT k, s.value, octet_length(s.value) FROM unnest(ARRAY['ok', 'del']) k, cfstore.get_slice('ApiScan', 'Utf', k) s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Utf', 'nul') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Utf', 'c080') s;
SELECT key, value, octet_length(value) FROM "ApiScan"."Utf" WHERE key IN ('ok', 'del') ORDER BY key;
SELECT value FROM "ApiScan"."Utf" WHERE key = 'nul';
SELECT value FROM "ApiScan"."Utf" WHERE key = 'c080';

-- AsciiType values read as text: a NUL byte raises, and so does a byte
-- outside ASCII, which a value written under another validator holds
SELECT cfstore.create_column_family('ApiScan', 'Asc', comparator => 'UTF8Type',
         default_validation_class => 'AsciiType');
SELECT cfstore.insert('ApiScan', 'Asc', 'ok', 'c', 'plain ascii, 8+ bytes', writetime => 1);
SELECT cfstore.insert('ApiScan', 'Asc', 'nul', 'c', '\x410042'::bytea, writetime => 1);
SELECT cfstore.update_column_family('ApiScan', 'Asc', default_validation_class => 'BytesType');
SELECT cfstore.insert('ApiScan', 'Asc', 'high', 'c', '\x4142434445464748ff'::bytea, writetime => 1);
SELECT cfstore.insert('ApiScan', 'Asc', 'utf8', 'c', '\x41c3a9'::bytea, writetime => 1);
SELECT cfstore.update_column_family('ApiScan', 'Asc', default_validation_class => 'AsciiType');
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Asc', 'ok') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Asc', 'nul') s;
SELECT s.value FROM cfstore.get_slice('ApiScan', 'Asc', 'high') s;
SELECT (cfstore.get_slice('ApiScan', 'Asc', 'utf8')).value;
SELECT value FROM "ApiScan"."Asc" WHERE key = 'ok';
SELECT value FROM "ApiScan"."Asc" WHERE key = 'nul';
SELECT value FROM "ApiScan"."Asc" WHERE key = 'high';
SELECT value FROM "ApiScan"."Asc" WHERE key = 'utf8';

-- the scan keeps the column family open while the rows name it, and opens
-- (checking the privilege) the next one when a row names another
SELECT v.cf, v.k, s.column_name, s.value
  FROM (VALUES ('Std', 'k1'), ('Raw', 'ascii3'), ('Std', 'k2'), ('Std', 'k3'), ('Utf', 'ok')) v(cf, k),
       LATERAL cfstore.get_slice('ApiScan', v.cf, v.k, count => 1) s;
SELECT v.cf, s.column_name FROM (VALUES ('Std'), ('Nope')) v(cf),
       LATERAL cfstore.get_slice('ApiScan', v.cf, 'k1', count => 1) s;
CREATE ROLE api_scan_reader;
GRANT USAGE ON SCHEMA cfstore TO api_scan_reader;
DO $$ BEGIN EXECUTE format('GRANT SELECT ON %s TO api_scan_reader', cfstore._storage_relation('ApiScan', 'Std')); END $$;
SET ROLE api_scan_reader;
SELECT v.cf, v.k, s.column_name FROM (VALUES ('Std', 'k1'), ('Std', 'k2')) v(cf, k),
       LATERAL cfstore.get_slice('ApiScan', v.cf, v.k, count => 1) s;
SELECT v.cf, v.k, s.column_name FROM (VALUES ('Std', 'k1'), ('Raw', 'ascii3')) v(cf, k),
       LATERAL cfstore.get_slice('ApiScan', v.cf, v.k, count => 1) s;
RESET ROLE;
DO $$ BEGIN EXECUTE format('REVOKE SELECT ON %s FROM api_scan_reader', cfstore._storage_relation('ApiScan', 'Std')); END $$;
REVOKE USAGE ON SCHEMA cfstore FROM api_scan_reader;
DROP ROLE api_scan_reader;

-- _read_row_keys (what cql() and the cli list rows with): every key up to
-- the maximum, past its first allocation; a maximum of 0 or a NULL name
-- is the caller's error
SELECT cfstore.create_column_family('ApiScan', 'Many', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT count(cfstore.insert('ApiScan', 'Many', 'k' || i, 'c', 'v', writetime => 1)) FROM generate_series(1, 3000) i;
SELECT count(*), count(DISTINCT k) FROM cfstore._read_row_keys('ApiScan', 'Many', NULL, true, 2147483647) k;
SELECT count(*), min(convert_from(k, 'UTF8')) FROM cfstore._read_row_keys('ApiScan', 'Many', 'k2'::bytea, false, 2500) k;
SELECT * FROM cfstore._read_row_keys('ApiScan', 'Many', NULL, true, 0);
SELECT * FROM cfstore._read_row_keys(NULL, 'Many', NULL, true, 5);
SELECT * FROM cfstore._read_slice('ApiScan', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- every column family written here verifies
SELECT name, cfstore.verify(keyspace, name) FROM cfstore.column_family WHERE keyspace = 'ApiScan' ORDER BY name;
DROP FUNCTION scan_plan(text);
SELECT cfstore.drop_keyspace('ApiScan');
