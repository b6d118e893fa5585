-- Nested objects as composite columns (put_object, get_object,
-- remove_object, find_objects): the order object of the examples, the cells it makes, exact
-- round trips of every kind of JSON value, partial updates and removals,
-- query by example (and which way it read), and the errors.
\set VERBOSITY terse
\set QUIET on
\set ECHO none
\i examples/objects/orders.sql
\set ECHO all
\set QUIET off

-- the cells, with their writetimes: one timestamp per call
SELECT column_name, value, writetime FROM cfstore.get_slice('shop', 'orders', '12736467'::text, count => 20);
-- the CQL3 table as SQL: the columns CQL3 knows
SELECT "custID", date, "orderID", amount, status, notes, "customer.email" FROM shop.orders ORDER BY 1, 2, 3;

-- a column family made with the API: the first put_object (by the keyspace
-- owner) records the primary key as its CQL3 key
SELECT cfstore.create_column_family('shop', 'docs', comparator => 'CompositeType(LongType, UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.put_object('shop', 'docs', '{"owner": "ann", "n": 1, "a": 1}', '{owner,n}');
SELECT cf -> 'key_aliases' AS key_aliases, cf -> 'column_aliases' AS column_aliases
  FROM jsonb_array_elements(cfstore.describe_keyspace('shop') -> 'cf_defs') cf WHERE cf ->> 'name' = 'docs';

-- exact round trips: numbers of any size and precision, strings that look
-- like numbers, booleans, null, empty objects and arrays, nested arrays,
-- unicode, and field names with the escaped characters
CREATE TEMP TABLE docs (n int, doc jsonb);
INSERT INTO docs VALUES
 (2, '{"big": 123456789012345678901234567890.123456789012345678901234567890, "tiny": 1e-30, "neg": -0.0,
       "scale": 1.50, "zero": 0, "int": 42}'),
 (3, '{"s1": "42", "s2": "true", "s3": "null", "s4": "", "s5": "{}", "s6": "\"quoted\"\\n"}'),
 (4, '{"t": true, "f": false, "z": null, "eo": {}, "ea": [], "deep": {"a": {"b": {"c": {}}}}}'),
 (5, '{"m": [[1, 2], [], [[3]], [{"x": [null]}]], "objs": [{"a": 1}, {}, {"b": [true, "x"]}]}'),
 (6, '{"a.b": 1, "c[0]": 2, "d]": 3, "e\\\\f": 4, "": 5, "\\\\0": 6, "[1]": {"": {"": []}}, ".": "."}'),
 (7, '{"ünï": "çødé ☃ 𝄞", "日本": ["語"]}'),
 (8, '{}');
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT * FROM docs LOOP
    PERFORM cfstore.put_object('shop', 'docs', r.doc || jsonb_build_object('owner', 'ann', 'n', r.n), '{owner,n}');
  END LOOP;
END $$;
SELECT n, cfstore.get_object('shop', 'docs', jsonb_build_object('owner', 'ann', 'n', n))
          = doc || jsonb_build_object('owner', 'ann', 'n', n) AS same
  FROM docs ORDER BY n;
-- the numbers keep their digits, the names their escapes
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 2}');
SELECT column_name, value FROM cfstore.get_slice('shop', 'docs', 'ann'::text, '6'::text, '6:~'::text);
-- an object with nothing but its key is its row marker
SELECT column_name, value FROM cfstore.get_slice('shop', 'docs', 'ann'::text, '8'::text, '8:~'::text);
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 8}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 9}') IS NULL AS none;

-- a field written replaces its subtree; absent fields are kept
SELECT cfstore.put_object('shop', 'docs', '{"owner": "ann", "n": 5, "m": [[9]], "new": {"x": 1}}', '{owner,n}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 5}');
SELECT column_name FROM cfstore.get_slice('shop', 'docs', 'ann'::text, '5'::text, '5:~'::text);
-- remove_object of paths: an array closes up; a path that is not there changes nothing
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 5}', '{objs.[0],new.x,nothere,m.[5]}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 5}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 6}', '{a\.b,\0,[1]}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 6}');
-- removing every field leaves the object (its row marker); removing the object removes it
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 1}', '{a}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 1}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 1}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 1}') IS NULL AS gone;
-- two writes of one object in one statement: the second sees the first's leaves
SELECT count(cfstore.put_object('shop', 'docs', v.doc, '{owner,n}')) FROM
  (VALUES ('{"owner": "cat", "n": 1, "arr": [1, 2, 3], "x": {"y": 1}}'::jsonb),
          ('{"owner": "cat", "n": 1, "arr": [9], "x": 2}')) v(doc);
SELECT cfstore.get_object('shop', 'docs', '{"owner": "cat", "n": 1}');
-- a subtree replaced with stale leaves under it: one range tombstone over
-- it, one microsecond older than the new leaves, which also hides a leaf
-- written there later with an older timestamp; a stale leaf as new as the
-- write gets a tombstone of its own; a scalar field replaced, a tombstone
SELECT cfstore.create_column_family('shop', 'trees', comparator => 'CompositeType(LongType, UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.put_object('shop', 'trees', '{"owner": "dan", "n": 1, "items": [{"a": 1, "b": 2}, {"a": 3}, [4, 5]], "s": {"t": 1}, "k": 1}',
                          '{owner,n}', writetime => 100);
SELECT cfstore.put_object('shop', 'trees', '{"owner": "dan", "n": 1, "items": [{"a": 9}], "s": {"t": 7, "u": 8}}', '{owner,n}', writetime => 100);
SELECT cfstore.put_object('shop', 'trees', '{"owner": "dan", "n": 1, "items": [{"b": 0}], "s": 2, "k": {"z": 1}}', '{owner,n}', writetime => 200);
SELECT cfstore.get_object('shop', 'trees', '{"owner": "dan", "n": 1}');
-- 4 stale leaves as new as the second write; then the subtrees items and s, and the scalar k
SELECT tombstones FROM cfstore.stats('shop', 'trees');
SELECT cfstore.insert('shop', 'trees', 'dan', '1:items.[2]'::text, '"late"', writetime => 150);
SELECT cfstore.insert('shop', 'trees', 'dan', '1:items.[3]'::text, '"later"', writetime => 250);
SELECT cfstore.get_object('shop', 'trees', '{"owner": "dan", "n": 1}');
-- TTL and writetime are the cells'
SELECT cfstore.put_object('shop', 'docs', '{"owner": "bob", "n": 1, "a": 1}', '{owner,n}', writetime => 5, ttl => 3600);
SELECT column_name, writetime, ttl FROM cfstore.get_slice('shop', 'docs', 'bob'::text);
-- last write wins against other writers of the same cells
SELECT cfstore.put_object('shop', 'docs', '{"owner": "bob", "n": 1, "a": 2}', '{owner,n}', writetime => 4);
SELECT cfstore.get_object('shop', 'docs', '{"owner": "bob", "n": 1}');
-- several row key fields: a CompositeType key
SELECT cfstore.create_column_family('shop', 'events', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'CompositeType(UTF8Type, Int32Type)', default_validation_class => 'UTF8Type');
SELECT cfstore.put_object('shop', 'events', '{"site": "x", "day": 7, "hits": {"a": 1}}', '{site,day}', 2);
SELECT cfstore.get_object('shop', 'events', '{"day": 7, "site": "x"}');
SELECT key, column_name, value FROM cfstore.get_range_slices('shop', 'events');

-- query by example: the row key, a clustering prefix, any other leaf
SELECT o FROM cfstore.find_objects('shop', 'docs', '{"owner": "ann", "n": 3}') o;
SELECT o ->> 'n' AS n FROM cfstore.find_objects('shop', 'docs', '{"owner": "ann", "t": true}') o;
SELECT o ->> 'n' AS n FROM cfstore.find_objects('shop', 'docs', '{"m": [[9]]}') o;
SELECT o ->> 'n' AS n FROM cfstore.find_objects('shop', 'docs', '{"big": 123456789012345678901234567890.12345678901234567890123456789000}') o;
SELECT o ->> 'n' AS n FROM cfstore.find_objects('shop', 'docs', '{"owner": "ann"}', 2) o;
SELECT count(*) FROM cfstore.find_objects('shop', 'docs', '{"nothing": 1}') o;
-- which way find_objects read
SET client_min_messages = debug1;
SELECT o ->> 'orderID' AS "orderID" FROM cfstore.find_objects('shop', 'orders', '{"customer": {"email": "joe@yahoo.com"}}') o;
SELECT o ->> 'orderID' AS "orderID" FROM cfstore.find_objects('shop', 'orders', '{"custID": "12736467", "date": "2013-06-12"}') o;
SELECT o ->> 'orderID' AS "orderID" FROM cfstore.find_objects('shop', 'orders', '{"status": "picked"}') o;
RESET client_min_messages;
-- the index reads only the matching objects: the buffers of a lookup by a
-- nested field among 2,000 orders, against those of the same query without
-- the index (a scan of every row)
DO $$
BEGIN
  FOR i IN 1 .. 2000 LOOP
    PERFORM cfstore.put_object('shop', 'orders', jsonb_build_object(
      'custID', 'c' || (i % 100), 'date', '2013-07-01', 'orderID', i, 'amount', i, 'status', 'new',
      'items', jsonb_build_array(jsonb_build_object('sku', i, 'quantity', 1)),
      'customer', jsonb_build_object('name', 'n' || i, 'email', 'e' || (i % 1000) || '@example.com',
                                     'tel', repeat('5', 40))), '{custID,date,orderID}');
  END LOOP;
END $$;
CREATE FUNCTION pg_temp.buffers(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ' || q INTO j;
  RETURN (j -> 0 -> 'Plan' ->> 'Shared Hit Blocks')::bigint + (j -> 0 -> 'Plan' ->> 'Shared Read Blocks')::bigint;
END $$;
SELECT o ->> 'orderID' AS "orderID" FROM cfstore.find_objects('shop', 'orders', '{"customer": {"email": "e7@example.com"}}') o;
SELECT pg_temp.buffers($$SELECT * FROM cfstore.find_objects('shop', 'orders', '{"customer": {"email": "e7@example.com"}}')$$) AS by_index \gset
SELECT pg_temp.buffers($$SELECT * FROM cfstore.find_objects('shop', 'orders', '{"customer": {"name": "n7"}}')$$) AS by_scan \gset
SELECT :by_index < 40 AS index_reads_few_buffers, :by_scan > 20 * :by_index AS scan_reads_many_more;

-- objects as SQL rows: a foreign table of the CQL3 rows whose object column
-- is each row's object; the key and the clustering prefix run in the storage
-- engine, and the objects join with the rest of the database
CREATE FOREIGN TABLE shop.order_docs ("custID" text, date text, "orderID" int, doc jsonb)
  SERVER cfstore OPTIONS (keyspace 'shop', column_family 'orders', rows 'cql', object_column 'doc');
SELECT "orderID", doc -> 'customer' ->> 'name' AS name, doc -> 'items' AS items
  FROM shop.order_docs WHERE "custID" = '12736467' ORDER BY date DESC LIMIT 1;
EXPLAIN (COSTS OFF) SELECT doc FROM shop.order_docs WHERE "custID" = '12736467' ORDER BY date DESC LIMIT 1;
CREATE TEMP TABLE vip (cust text PRIMARY KEY, since int);
INSERT INTO vip VALUES ('40211873', 2010), ('99999999', 2011);
SELECT v.cust, v.since, d.doc ->> 'status' AS status, d.doc #>> '{items,0,gift,note}' AS note
  FROM vip v JOIN shop.order_docs d ON d."custID" = v.cust;
SELECT count(*) AS objects, bool_and(doc = cfstore.get_object('shop', 'orders',
         jsonb_build_object('custID', "custID", 'date', date, 'orderID', "orderID"))) AS same_as_get_object
  FROM shop.order_docs;
-- the object column is read-only; it must be jsonb, of a table of CQL3 rows
INSERT INTO shop.order_docs VALUES ('1', 'd', 1, '{"a": 1}');
UPDATE shop.order_docs SET doc = '{}' WHERE "custID" = '12736467';
CREATE FOREIGN TABLE shop.bad1 ("custID" text, date text, "orderID" int, doc text)
  SERVER cfstore OPTIONS (keyspace 'shop', column_family 'orders', rows 'cql', object_column 'doc');
SELECT * FROM shop.bad1;
CREATE FOREIGN TABLE shop.bad2 (key text, column_name text, value text, doc jsonb)
  SERVER cfstore OPTIONS (keyspace 'shop', column_family 'orders', object_column 'doc');
SELECT * FROM shop.bad2;
CREATE FOREIGN TABLE shop.bad3 ("custID" text, date text, "orderID" int)
  SERVER cfstore OPTIONS (keyspace 'shop', column_family 'orders', rows 'cql', object_column 'doc');
SELECT * FROM shop.bad3;
DROP FOREIGN TABLE shop.bad1, shop.bad2, shop.bad3, shop.order_docs;

-- bad input: clear errors, nothing written
SELECT cfstore.put_object('shop', 'orders', '[1]', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '"x"', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', NULL, '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d"}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": "abc"}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1.5}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": null, "date": "d", "orderID": 1}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "", "date": "d", "orderID": 1}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": {"a": 1}, "date": "d", "orderID": 1}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1, "amount": "lots"}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1, "status": null}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1, "status": ["a"]}', '{custID,date,orderID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1}', '{custID,orderID,date}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1}', '{custID,date,orderID}', 2);
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1}', '{custID,date,orderID}', 0);
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1}', '{custID,date,orderID}', 4);
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1"}', '{}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1"}', '{custID,custID}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1"}', '{custID,NULL}');
SELECT cfstore.put_object('shop', 'orders', '{"custID": "1", "date": "d", "orderID": 1}', '{custID,date,orderID}', ttl => 0);
SELECT cfstore.put_object('shop', 'nosuch', '{"a": "1"}', '{a}');
SELECT cfstore.put_object('nosuch', 'orders', '{"a": "1"}', '{a}');
SELECT cfstore.put_object('shop', 'docs', jsonb_build_object('owner', 'ann', 'n', 1, repeat('x', 70000), 1), '{owner,n}');
SELECT cfstore.put_object('shop', 'docs', jsonb_build_object('owner', repeat('x', 70000), 'n', 1), '{owner,n}');
-- column families that cannot hold objects
SELECT cfstore.create_column_family('shop', 'flat', comparator => 'UTF8Type');
SELECT cfstore.put_object('shop', 'flat', '{"k": "1", "a": 1}', '{k}');
SELECT cfstore.create_column_family('shop', 'readings', comparator => 'CompositeType(UTF8Type, UTF8Type)',
       default_validation_class => 'DoubleType');
SELECT cfstore.put_object('shop', 'readings', '{"k": "1", "c": "x", "a": 1}', '{k,c}');
SELECT cfstore.create_column_family('shop', 'twokeys', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
SELECT cfstore.put_object('shop', 'twokeys', '{"a": "1", "b": "2"}', '{a,b}', 2);
SELECT cfstore.put_object('shop', 'docs', '{"owner": "ann", "n": 1}', '{owner}');
SELECT cfstore.get_object('shop', 'flat', '{"k": "1"}');
SELECT cfstore.get_object('shop', 'twokeys', '{"a": "1"}');
-- keys and paths
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann"}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 1, "x": 2}');
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": "one"}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 2}', '{owner}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 2}', '{a..b}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 2}', '{a[0]}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 2}', '{""}');
SELECT cfstore.remove_object('shop', 'docs', '{"owner": "ann", "n": 2}', '{NULL}');
SELECT cfstore.find_objects('shop', 'docs', '{"owner": "ann"}', -1);
SELECT cfstore.find_objects('shop', 'orders', '{"customer": {"email": 5}}');
-- nothing was written by the failed calls
SELECT count(*) FROM cfstore.get_slice('shop', 'orders', '1'::text);
SELECT count(*) FROM cfstore.get_slice('shop', 'twokeys', '1'::text);

-- privileges: a role that may read but not write, and one that may do neither
CREATE ROLE object_reader;
CREATE ROLE object_stranger;
GRANT USAGE ON SCHEMA shop TO object_reader, object_stranger;
GRANT SELECT ON shop.docs TO object_reader;
SET ROLE object_reader;
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 3}') ->> 's1' AS s1;
SELECT cfstore.put_object('shop', 'docs', '{"owner": "ann", "n": 3, "s1": "x"}', '{owner,n}');
SET ROLE object_stranger;
SELECT cfstore.get_object('shop', 'docs', '{"owner": "ann", "n": 3}');
SELECT cfstore.find_objects('shop', 'docs', '{"s1": "42"}');
RESET ROLE;
SELECT cfstore.create_column_family('shop', 'fresh', comparator => 'CompositeType(UTF8Type)',
       key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type');
GRANT SELECT, INSERT, UPDATE ON shop.fresh TO object_stranger;
SET ROLE object_stranger;
SELECT cfstore.put_object('shop', 'fresh', '{"k": "1", "a": 1}', '{k}');
RESET ROLE;
REVOKE ALL ON shop.docs FROM object_reader;
REVOKE ALL ON shop.fresh FROM object_stranger;
REVOKE ALL ON SCHEMA shop FROM object_reader, object_stranger;
DROP ROLE object_reader;
DROP ROLE object_stranger;

\o /dev/null
SELECT cfstore.drop_keyspace('shop');
\o
