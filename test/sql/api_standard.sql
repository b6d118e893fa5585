-- The function API on Standard column families (README.md "Reading and writing";
-- doc/semantics.md §4-§8.2, §11): "any" arguments, comparator order,
-- reconciliation, tombstones, TTL, slices, and the invalid-request texts.
-- Every write passes an explicit writetime except where the default is the
-- subject.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('ApiStd');
SELECT cfstore.create_column_family('ApiStd', 'Bytes',
         column_metadata => '[{"column_name": "col", "validation_class": "LongType"}]');
SELECT cfstore.create_column_family('ApiStd', 'Utf8', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "age", "validation_class": "LongType"},
                              {"column_name": "born", "validation_class": "DateType"},
                              {"column_name": "ok", "validation_class": "BooleanType"}]');
SELECT cfstore.create_column_family('ApiStd', 'Long', comparator => 'LongType',
         key_validation_class => 'LongType', default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiStd', 'Tuuid', comparator => 'TimeUUIDType',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiStd', 'Comp', comparator => 'CompositeType(UTF8Type, LongType)',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiStd', 'Rev', comparator => 'ReversedType(LongType)',
         default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('ApiStd', 'Versions');
SELECT cfstore.create_column_family('ApiStd', 'Ttl', comparator => 'UTF8Type',
         default_validation_class => 'UTF8Type', default_time_to_live => 1000);

-- ---------------------------------------------------------------------------
-- 1. BytesType: unsigned byte order, a shorter prefix first; bytea, text,
--    varchar and unknown arguments; values in bytea escape form; a
--    column_metadata validator governs its column's value
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1'::bytea, '\xff'::bytea, '\x00ff'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1', '\x80', 'plain', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1'::text, 'ab'::varchar, 'x\\y'::text, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1'::varchar, 'a'::text, '\x7f'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1', '\x00'::bytea, 'zero', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1', '\x7f'::bytea, ''::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row1', 'col', 42, writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'row1');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'row1', 'col');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', '\x726f7731'::bytea, '\x80'::bytea);
-- get returns the named column only, not the names it is a prefix of
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'row1', 'a');
-- a missing column, a missing row: no rows
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'row1', 'nope');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'row2', 'col');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'row2');
-- a key that is a prefix of another is another row
SELECT cfstore.insert('ApiStd', 'Bytes', 'row', 'a', 'short key', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'row10', 'a', 'long key', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'row');
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'row10');
SELECT cfstore.verify('ApiStd', 'Bytes');

-- ---------------------------------------------------------------------------
-- 2. Reconciliation (doc/semantics.md §4)
-- ---------------------------------------------------------------------------
-- equal timestamps: the bigger value wins, bytes compared signed
-- (0x80 = -128 < 0x7f, 0xff = -1 < 0x01), then the shorter first; the order
-- of the writes does not matter
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c1', '\x80'::bytea, writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c1', '\x7f'::bytea, writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c2', '\x7f'::bytea, writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c2', '\x80'::bytea, writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c3', 'abc', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c3', 'ab', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c4', 'b', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c4', 'abc', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c5', '\x01'::bytea, writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c5', '\xff'::bytea, writetime => 100);
-- a higher timestamp wins whatever the value; a later write with an older one is ignored
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c6', 'zzz', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c6', 'aaa', writetime => 101);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c6', 'zzzz', writetime => 99);
-- timestamps are arbitrary int64s
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c7', 'neg', writetime => -5);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c7', 'more neg', writetime => -6);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c8', 'max', writetime => 9223372036854775807);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tie', 'c8', 'min', writetime => -9223372036854775808);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'tie');
-- UTF8 values at one timestamp ("z" beats "x value ", ColumnFamilyTest.testMergeAndAdd)
SELECT cfstore.insert('ApiStd', 'Utf8', 'tie', 'c', 'x value ', writetime => 7);
SELECT cfstore.insert('ApiStd', 'Utf8', 'tie', 'c', 'z', writetime => 7);
SELECT cfstore.insert('ApiStd', 'Utf8', 'tie', 'd', 'val2', writetime => 7);
SELECT cfstore.insert('ApiStd', 'Utf8', 'tie', 'd', 'val1', writetime => 7);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'tie');
-- TTL plays no part: a live expiring column and a plain one are ordered by timestamp
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'x', 'plain', writetime => 5);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'x', 'expiring', writetime => 10, ttl => 1000);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'y', 'expiring', writetime => 10, ttl => 1000);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'y', 'plain', writetime => 20);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'z', 'expiring', writetime => 10, ttl => 1000);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'z', 'plain older', writetime => 9);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'w', 'a plain', writetime => 10);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttlrec', 'w', 'b expiring', writetime => 10, ttl => 1000);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'ttlrec');
-- many large versions of one column over several pages: 30 values of
-- 1500 bytes 0x08, 0x10 .. 0xf0 at one timestamp, written out of order;
-- the signed-biggest, 0x78 ('x'), wins; then a newer version, then a
-- deletion at its timestamp
DO $$
BEGIN
  PERFORM cfstore.insert('ApiStd', 'Versions', 'big', 'l', 'left', writetime => 1);
  PERFORM cfstore.insert('ApiStd', 'Versions', 'big', 'n', 'right', writetime => 1);
  FOR i IN 0..29 LOOP
    PERFORM cfstore.insert('ApiStd', 'Versions', 'big', 'm',
              decode(repeat(lpad(to_hex(((i * 7) % 30 + 1) * 8), 2, '0'), 1500), 'hex'), writetime => 50);
  END LOOP;
END $$;
SELECT column_name, length(value), left(value, 3), writetime FROM cfstore.get_slice('ApiStd', 'Versions', 'big');
SELECT column_name, length(value), left(value, 3), writetime FROM cfstore.get_slice('ApiStd', 'Versions', 'big', reversed => true);
SELECT column_name, length(value), left(value, 3), writetime FROM cfstore.get('ApiStd', 'Versions', 'big', 'm');
SELECT cfstore.insert('ApiStd', 'Versions', 'big', 'm', 'newer', writetime => 51);
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Versions', 'big', start => 'm', count => 1);
SELECT cfstore.remove('ApiStd', 'Versions', 'big', 'm', writetime => 51);
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Versions', 'big');
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Versions', 'big', start => 'm', reversed => true, count => 1);
SELECT cfstore.verify('ApiStd', 'Versions');
SELECT cfstore.verify('ApiStd', 'Utf8');

-- the limits of doc/semantics.md §1: row keys and names up to 65535 bytes, values
-- of any size
SELECT cfstore.insert('ApiStd', 'Bytes', repeat('k', 65535), 'c', 'longest key', writetime => 1);
SELECT length(key), column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', repeat('k', 65535));
SELECT cfstore.insert('ApiStd', 'Bytes', 'limits', repeat('n', 65535), 'longest name', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'limits', 'v', repeat('v', 100000), writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'limits', 'w', repeat('w', 3000), writetime => 1);
SELECT length(column_name), length(value) FROM cfstore.get_slice('ApiStd', 'Bytes', 'limits');
SELECT cfstore.verify('ApiStd', 'Bytes');

-- ---------------------------------------------------------------------------
-- 3. Column tombstones (doc/semantics.md §5)
-- ---------------------------------------------------------------------------
-- deletion wins timestamp ties, whichever comes first
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd1', 'v', writetime => 200);
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd1', writetime => 200);
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd2', writetime => 200);
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd2', 'v', writetime => 200);
-- an older deletion does nothing
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd3', 'kept', writetime => 200);
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd3', writetime => 199);
-- a later write older than the deletion is invisible; a newer one resurrects
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd4', 'v1', writetime => 200);
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd4', writetime => 300);
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd4', 'v2', writetime => 250);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'del', 'd4');
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd4', 'v3', writetime => 301);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'del', 'd4');
-- of two deletions the newer counts, whatever their order
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd5', writetime => 400);
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd5', writetime => 100);
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd5', 'v', writetime => 350);
-- a deletion of a column that never existed, then a write after it
SELECT cfstore.remove('ApiStd', 'Bytes', 'del', 'd6', writetime => 10);
SELECT cfstore.insert('ApiStd', 'Bytes', 'del', 'd6', 'after', writetime => 11);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'del');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'del', reversed => true);
-- a row that only has tombstones returns nothing
SELECT cfstore.insert('ApiStd', 'Bytes', 'ghost', 'g', 'v', writetime => 1);
SELECT cfstore.remove('ApiStd', 'Bytes', 'ghost', 'g', writetime => 2);
SELECT cfstore.remove('ApiStd', 'Bytes', 'ghost', 'h', writetime => 2);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'ghost');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'ghost', 'g');
SELECT cfstore.verify('ApiStd', 'Bytes');

-- ---------------------------------------------------------------------------
-- 4. Row tombstones: they shadow every column of the row with a timestamp
--    <= theirs (ties included); a newer write resurrects only its column
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  PERFORM cfstore.insert('ApiStd', 'Bytes', 'rowdel', c, 'v', writetime => 500)
     FROM unnest(ARRAY['a', 'b', 'c', 'd']) AS c;
  PERFORM cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'e', 'newer', writetime => 600);
END $$;
SELECT cfstore.remove('ApiStd', 'Bytes', 'rowdel', writetime => 505);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
SELECT cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'b', 'again', writetime => 506);
SELECT cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'c', 'tie', writetime => 505);
SELECT cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'd', 'older', writetime => 504);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel', reversed => true);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'rowdel', 'a');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'rowdel', 'b');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'rowdel', 'c');
-- count only counts live columns: the shadowed ones are skipped
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel', count => 1);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel', start => 'd', reversed => true, count => 1);
-- an older row tombstone changes nothing (the larger one applies)
SELECT cfstore.remove('ApiStd', 'Bytes', 'rowdel', writetime => 1);
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
-- a newer row tombstone takes everything older, then a resurrection
SELECT cfstore.remove('ApiStd', 'Bytes', 'rowdel', writetime => 600);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
SELECT cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'a', 'back', writetime => 601);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
-- the storage relation holds the live reconciled cells only
SELECT cfstore._storage_relation('ApiStd', 'Bytes') AS bytes_rel \gset
SELECT key, column_name, value FROM :bytes_rel
 WHERE key IN ('del'::bytea, 'rowdel'::bytea, 'ghost'::bytea) ORDER BY key, column_name;
SELECT cfstore.verify('ApiStd', 'Bytes');
-- neighbouring rows stay apart, in both directions, with a row tombstone
-- on the middle one
DO $$
BEGIN
  PERFORM cfstore.insert('ApiStd', 'Utf8', k, c, k || '.' || c, writetime => 1)
     FROM unnest(ARRAY['ka', 'kb', 'kc']) AS k, unnest(ARRAY['x', 'y']) AS c;
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'kb', writetime => 5);
  PERFORM cfstore.insert('ApiStd', 'Utf8', 'kb', 'y', 'kb.y again', writetime => 6);
END $$;
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'ka', reversed => true);
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'ka', start => 'zzz', reversed => true, count => 1);
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'kb');
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'kb', reversed => true);
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'kb', start => 'x', finish => 'x');
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'kc', start => 'a');
SELECT key, column_name, value FROM cfstore.get('ApiStd', 'Utf8', 'kc', 'x');
SELECT cfstore.verify('ApiStd', 'Utf8');

-- ---------------------------------------------------------------------------
-- 5. count, bounds and direction (doc/semantics.md §8.2)
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  FOR i IN 1..9 LOOP
    PERFORM cfstore.insert('ApiStd', 'Utf8', 'cnt', 'c' || i, 'v' || i, writetime => 10);
  END LOOP;
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'cnt', 'c2', writetime => 11);
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'cnt', 'c3', writetime => 11);
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'cnt', 'c8', writetime => 10);
  PERFORM cfstore.insert('ApiStd', 'Utf8', 'cnt', 'c7', 'older', writetime => 9);
END $$;
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', count => 3);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', reversed => true, count => 2);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', start => 'c2', count => 2);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', start => 'c8', reversed => true, count => 2);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', start => 'c3', finish => 'c2', reversed => true);
SELECT count(*) FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', count => 0);
SELECT count(*) FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt', reversed => true, count => 0);
SELECT string_agg(column_name, ',' ORDER BY n) FROM cfstore.get_slice('ApiStd', 'Utf8', 'cnt') WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
-- the default count is 100
DO $$
BEGIN
  FOR i IN 1..120 LOOP
    PERFORM cfstore.insert('ApiStd', 'Utf8', 'many', lpad(i::text, 3, '0'), 'v', writetime => 1);
  END LOOP;
END $$;
SELECT count(*), min(column_name), max(column_name) FROM cfstore.get_slice('ApiStd', 'Utf8', 'many');
SELECT count(*), min(column_name), max(column_name) FROM cfstore.get_slice('ApiStd', 'Utf8', 'many', reversed => true);
SELECT count(*) FROM cfstore.get_slice('ApiStd', 'Utf8', 'many', count => 1000);
-- bounds are inclusive, need not exist, '' and NULL are unbounded; with
-- reversed, start is the upper bound and finish the lower one
DO $$
BEGIN
  PERFORM cfstore.insert('ApiStd', 'Utf8', 'bounds', c, upper(c), writetime => 1)
     FROM unnest(ARRAY['col1', 'col3', 'col5', 'col7']) AS c;
END $$;
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col3', finish => 'col5');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col2'::varchar, finish => 'col6'::text);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col5', finish => 'col5');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col4', finish => 'col4');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col4', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col6', finish => 'col2', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col7', finish => 'col3', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => '', finish => 'col3');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col3', finish => '');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => NULL, finish => NULL, reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => '', finish => 'col3', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col3', finish => '', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => ''::bytea, finish => NULL::text);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col8');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', finish => 'col0');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col0', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', finish => 'col8', reversed => true);
SELECT cfstore.verify('ApiStd', 'Utf8');

-- ---------------------------------------------------------------------------
-- 6. A wide row over many pages: a row tombstone, a few resurrected and
--    deleted columns, slices from the middle in both directions
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  FOR i IN 1..1500 LOOP
    PERFORM cfstore.insert('ApiStd', 'Utf8', 'wide', lpad(i::text, 4, '0'), repeat('x', 300), writetime => 5);
  END LOOP;
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'wide', writetime => 10);
  FOR i IN 100..1500 BY 100 LOOP
    PERFORM cfstore.insert('ApiStd', 'Utf8', 'wide', lpad(i::text, 4, '0'), 'back', writetime => 11);
  END LOOP;
  PERFORM cfstore.remove('ApiStd', 'Utf8', 'wide', '0700', writetime => 12);
  PERFORM cfstore.insert('ApiStd', 'Utf8', 'wide', '0001', 'tie', writetime => 10);
END $$;
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide') WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', reversed => true, count => 5) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', start => '0650', finish => '1250') WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', start => '1250', finish => '0650', reversed => true) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', start => '0799', reversed => true, count => 3) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', start => '0700', reversed => true, count => 2) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(column_name, ',' ORDER BY n) AS names
  FROM cfstore.get_slice('ApiStd', 'Utf8', 'wide', start => '0700', count => 1) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'wide', '0500');
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'wide', '0501');
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'wide', '0700');
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'wide', '0001');
SELECT cfstore.verify('ApiStd', 'Utf8');

-- ---------------------------------------------------------------------------
-- 7. "any" arguments of several SQL types; column_metadata validators
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow'::varchar, 'age', 42::bigint, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow'::text, 'age', 41, writetime => 0);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'born', '2010-08-12 12:00:00+00'::timestamptz, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'ok', true, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'name'::name, 'Zoë'::varchar, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'bytes', '\x5a6fc3ab'::bytea, writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'anyrow');
SELECT value FROM cfstore.get('ApiStd', 'Utf8', 'anyrow'::name, 'age'::varchar);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'age', 43.0::numeric, writetime => 2);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'born', 1281614400001::bigint, writetime => 2);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'ok', 'false', writetime => 2);
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Utf8', 'anyrow', start => 'age', finish => 'ok');
-- the empty byte string is a valid value of every type, rendered as ''
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'age', ''::bytea, writetime => 3);
SELECT cfstore.insert('ApiStd', 'Utf8', 'anyrow', 'born', '', writetime => 3);
SELECT column_name, value, writetime FROM cfstore.get_slice('ApiStd', 'Utf8', 'anyrow', finish => 'born');
SELECT cfstore.verify('ApiStd', 'Utf8');

-- ---------------------------------------------------------------------------
-- 8. LongType: signed 64-bit order; a LongType key
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Long', 1, -256::bigint, 'minus 256', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1::bigint, -1, 'minus one', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', '1', 0::smallint, 'zero', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1::numeric, 1::numeric, 'one', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1::smallint, '7', 'seven', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', '\x0000000000000001'::bytea, '42'::text, 'forty-two', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1, '\x0000000000000100'::bytea, '256', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1, 9223372036854775807, 'max', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1, -9223372036854775808, 'min', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 2, 5, 'other row', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Long', 1, start => -1, finish => 7::numeric);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Long', 1, start => '41', finish => -255, reversed => true);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Long', 1, start => 2, count => 2);
SELECT * FROM cfstore.get('ApiStd', 'Long', 1, 7::smallint);
SELECT * FROM cfstore.get('ApiStd', 'Long', '-1', 7);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 2);
SELECT cfstore.remove('ApiStd', 'Long', 1, 0, writetime => 2);
SELECT cfstore.remove('ApiStd', 'Long', 1, '7', writetime => 0);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Long', 1, start => -1, finish => 7);
SELECT cfstore.verify('ApiStd', 'Long');

-- ---------------------------------------------------------------------------
-- 9. TimeUUIDType: by the 60-bit timestamp, then signed bytes
-- ---------------------------------------------------------------------------
-- time 0x0ffffffff; same time with bytes 8.. 80..01 and 7f..00; time 2^32; time 2^48
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', 'ffffffff-0000-1000-8000-000000000000'::cfstore.timeuuid, 'a', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', '\xffffffff000010008000000000000001'::bytea, 'd', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', 'ffffffff-0000-1000-7f00-000000000000', 'e', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', '00000000-0001-1000-8000-000000000000'::uuid, 'b', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', '00000000-0000-1001-8000-000000000000'::text, 'c', writetime => 1);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Tuuid', 't');
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Tuuid', 't',
         start => 'ffffffff-0000-1000-8000-000000000001'::uuid, finish => '00000000-0001-1000-8000-000000000000');
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Tuuid', 't', reversed => true, count => 2);
SELECT column_name, value FROM cfstore.get('ApiStd', 'Tuuid', 't', '00000000-0000-1001-8000-000000000000'::cfstore.timeuuid);
-- 'now' is a new version-1 UUID, later than the one before
SELECT cfstore.insert('ApiStd', 'Tuuid', 'now', 'now', 'first', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 'now', 'now'::text, 'second', writetime => 1);
SELECT string_agg(value, ',') FROM cfstore.get_slice('ApiStd', 'Tuuid', 'now');
SELECT value FROM cfstore.get_slice('ApiStd', 'Tuuid', 'now', reversed => true, count => 1);
SELECT cfstore.verify('ApiStd', 'Tuuid');

-- ---------------------------------------------------------------------------
-- 10. CompositeType(UTF8Type, LongType): component order; prefix slices
--     with end-of-component bytes (:! = 1, :_ = -1)
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Comp', 'k', ROW('a', 1), 'a1', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', 'a:2', 'a2', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', ROW('a'::text, -5::bigint), 'a-5', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', ROW('ab', 0), 'ab0', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', 'b:-1'::text, 'b-1', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', ROW('b', 3), 'b3', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', 'x\:y:1', 'escaped', writetime => 1);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Comp', 'k');
-- = a: [a·0, a·1]
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a', finish => 'a:!');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => ROW('a'), finish => 'a:!');
-- < b: finish b·-1; <= a: finish a·1
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', finish => 'b:_');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', finish => 'a:!');
-- > a: start a·1; >= b: start b·0; > b: start b·1
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a:!');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'b');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'b:!');
-- a·-1 is before every a name, a·0 is before every a name but the prefix itself
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a:_', count => 1);
-- reversed: start is the upper bound
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a:!', finish => 'a', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'b:_', reversed => true, count => 2);
-- two-component bounds, with an end-of-component on the last one
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => ROW('a', 1), finish => ROW('b', -1));
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a:1:!', finish => 'b:-1:_');
SELECT * FROM cfstore.get('ApiStd', 'Comp', 'k', ROW('ab', 0));
SELECT * FROM cfstore.get('ApiStd', 'Comp', 'k', ROW('ab'));
SELECT cfstore.verify('ApiStd', 'Comp');

-- ---------------------------------------------------------------------------
-- 11. ReversedType(LongType): descending numbers; reversed slices ascend
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  PERFORM cfstore.insert('ApiStd', 'Rev', 'r', n, 'n' || n, writetime => 1)
     FROM unnest(ARRAY[1, 5, 3, 10]) AS n;
END $$;
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Rev', 'r');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => 5, finish => 1);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => 4, count => 1);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Rev', 'r', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => 3, finish => 10, reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => '', finish => 4, reversed => true);
SELECT cfstore._storage_relation('ApiStd', 'Rev') AS rev_rel \gset
SELECT key, column_name, value FROM :rev_rel ORDER BY key, column_name;
SELECT cfstore.verify('ApiStd', 'Rev');

-- ---------------------------------------------------------------------------
-- 12. The default writetime is now, in microseconds since 1970
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Utf8', 'now', 'c', 'default ts');
SELECT column_name, value, ttl,
       abs(writetime - (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) < 60000000 AS about_now
  FROM cfstore.get('ApiStd', 'Utf8', 'now', 'c');
SELECT cfstore.insert('ApiStd', 'Utf8', 'now', 'c', 'older explicit', writetime => 1000);
SELECT column_name, value FROM cfstore.get('ApiStd', 'Utf8', 'now', 'c');
SELECT cfstore.insert('ApiStd', 'Utf8', 'now', 'future', 'v', writetime => 4000000000000000);
SELECT cfstore.insert('ApiStd', 'Utf8', 'now', 'past', 'v', writetime => 1000);
SELECT cfstore.remove('ApiStd', 'Utf8', 'now', 'c');
SELECT cfstore.remove('ApiStd', 'Utf8', 'now', 'future');
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'now');
SELECT cfstore.insert('ApiStd', 'Utf8', 'now', 'c', 'again', writetime => NULL);
SELECT column_name, value, writetime > 1000 AS newer FROM cfstore.get_slice('ApiStd', 'Utf8', 'now');
SELECT cfstore.remove('ApiStd', 'Utf8', 'now');
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Utf8', 'now');
SELECT cfstore.verify('ApiStd', 'Utf8');

-- ---------------------------------------------------------------------------
-- 13. TTL (doc/semantics.md §6): results show the ttl the column was written with;
--     NULL ttl means the column family's default_time_to_live; an expired
--     column is not returned, not counted, and still shadows older versions
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'short', 'gone soon', writetime => 10, ttl => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'long', 'stays', writetime => 10, ttl => 630720000);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'plain', 'stays', writetime => 10);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'shadow', 'older', writetime => 5);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'shadow', 'expiring', writetime => 10, ttl => 1);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'default', 'v', writetime => 10);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'null ttl', 'v', writetime => 10, ttl => NULL);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'explicit', 'v', writetime => 10, ttl => 5000);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'ttl', start => 'long', finish => 'plain');
SELECT * FROM cfstore.get_slice('ApiStd', 'Ttl', 'k');
SELECT cfstore.update_column_family('ApiStd', 'Ttl', default_time_to_live => 1);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'short default', 'v', writetime => 10);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'explicit2', 'v', writetime => 10, ttl => 5000);
SELECT pg_sleep(2.1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'ttl');
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'ttl', 'short');
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'ttl', 'shadow');
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'ttl', reversed => true, count => 1);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Utf8', 'ttl', start => 'plain', count => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Ttl', 'k');
-- the expired column is a tombstone at its timestamp: older and equal
-- writes stay invisible, a newer one resurrects
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'shadow', 'older again', writetime => 9);
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'shadow', 'a', writetime => 10);
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'ttl', 'shadow');
SELECT cfstore.insert('ApiStd', 'Utf8', 'ttl', 'shadow', 'newer', writetime => 11);
SELECT * FROM cfstore.get('ApiStd', 'Utf8', 'ttl', 'shadow');
-- expiry happens as soon as now >= the expiry second (README.md "Reading and writing"; C11+):
-- a ttl of 1 written early in second S is gone at S + 1.05
SELECT pg_sleep(1 - extract(epoch FROM clock_timestamp()) % 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'edge', 'c', 'v', writetime => 1, ttl => 1);
SELECT pg_sleep(1.05);
SELECT count(*) AS live FROM cfstore.get_slice('ApiStd', 'Utf8', 'edge');
SELECT cfstore.verify('ApiStd', 'Utf8');
SELECT cfstore.verify('ApiStd', 'Ttl');

-- ---------------------------------------------------------------------------
-- 14. Invalid requests (doc/semantics.md §11); none of them writes anything
-- ---------------------------------------------------------------------------
-- column family and keyspace
SELECT cfstore.insert('ApiStd', 'Nope', 'k', 'c', 'v', writetime => 1);
SELECT cfstore.insert('NoKs', 'Bytes', 'k', 'c', 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Nope', 'k', 'c');
SELECT * FROM cfstore.get_slice('NoKs', 'Bytes', 'k');
SELECT cfstore.remove('ApiStd', 'Nope', 'k', writetime => 1);
SELECT cfstore.remove('ApiStd', '', 'k', writetime => 1);
-- keys
SELECT cfstore.insert('ApiStd', 'Bytes', '', 'c', 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', ''::bytea, 'c', 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', '', 'c');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', ''::text);
SELECT cfstore.remove('ApiStd', 'Bytes', '', writetime => 1);
SELECT cfstore.remove('ApiStd', 'Bytes', '', 'c', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', repeat('k', 65536), 'c', 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', repeat('k', 65536), 'c');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', repeat('k', 65536));
SELECT cfstore.remove('ApiStd', 'Bytes', repeat('k', 65536), writetime => 1);
-- keys are validated by key_validation_class
SELECT cfstore.insert('ApiStd', 'Long', '\x01'::bytea, 1, 'v', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', '\x0102'::bytea);
SELECT * FROM cfstore.get('ApiStd', 'Long', '\x010203'::bytea, 1);
SELECT cfstore.insert('ApiStd', 'Utf8', '\xff'::bytea, 'c', 'v', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', '\xc3'::bytea);
-- column names
SELECT cfstore.insert('ApiStd', 'Bytes', 'keep', 'c', 'kept', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'k', '', 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', ''::text, 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'k', '');
SELECT cfstore.remove('ApiStd', 'Bytes', 'k', '', writetime => 1);
SELECT cfstore.remove('ApiStd', 'Bytes', 'keep', ''::bytea, writetime => 2);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'keep');
SELECT cfstore.insert('ApiStd', 'Bytes', 'k', repeat('n', 65536), 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'k', repeat('n', 65536));
SELECT cfstore.remove('ApiStd', 'Bytes', 'k', repeat('n', 65536), writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'k', start => repeat('n', 65536));
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'k', finish => repeat('n', 65536));
-- names are validated by the comparator
SELECT cfstore.insert('ApiStd', 'Long', 1, '\x01'::bytea, 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Long', 1, '\x01'::bytea);
SELECT cfstore.remove('ApiStd', 'Long', 1, '\x000102'::bytea, writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, start => '\x01'::bytea);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, finish => '\x0102'::bytea);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', '\xc0'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', '\x010203'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', '\xa0eebc999c0b4ef8bb6d6bb9bd380a11'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Tuuid', 't', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 'v', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Tuuid', 't', '\xa0eebc999c0b4ef8bb6d6bb9bd380a11'::bytea);
SELECT * FROM cfstore.get_slice('ApiStd', 'Tuuid', 't', start => '\x010203'::bytea);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x000161'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x00016101000162'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x000161000001010000016200'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x0001610000080000000000000001000001620000'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x00'::bytea, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Comp', 'k', '\x000561'::bytea, 'v', writetime => 1);
-- get validates the column path before the key (doc/semantics.md §11); get_slice
-- validates the column parent and the slice range before the key
-- (CassandraServer.multigetSliceInternal)
SELECT * FROM cfstore.get('ApiStd', 'Long', ''::bytea, '\x01'::bytea);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', ''::bytea, start => '\x01'::bytea);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', '', count => -1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', '', start => 'b', finish => 'a');
-- values are validated by the column's validator
SELECT cfstore.insert('ApiStd', 'Bytes', 'k', 'col', decode(repeat('ab', 20), 'hex'), writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'age', '\x01'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'born', '\x0102'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'ok', '\x0102'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'name', '\xff'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1, 5, '\xc3'::bytea, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'name', NULL::text, writetime => 1);
-- the ttl is validated before the value (ThriftValidation.validateColumnData)
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'age', '\x01'::bytea, writetime => 1, ttl => 0);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'name', NULL::text, writetime => 1, ttl => 630720001);
-- "any" pairings without a conversion
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'age', true, writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1, true, 'v', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Long', 1.5, 1, 'v', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, start => 1.5::float8);
-- super_column on a Standard column family; shape errors come before any
-- argument is converted (README.md "Reading and writing")
SELECT cfstore.insert('ApiStd', 'Bytes', 'k', 'c', 'v', writetime => 1, super_column => 'sc');
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'k', 'c', super_column => 'sc');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'k', super_column => 'sc');
SELECT cfstore.remove('ApiStd', 'Bytes', 'k', super_column => 'sc', writetime => 1);
SELECT cfstore.remove('ApiStd', 'Bytes', 'k', 'c', super_column => 'sc', writetime => 1);
SELECT * FROM cfstore.get('ApiStd', 'Bytes', 'k');
SELECT * FROM cfstore.get('ApiStd', 'Long', 'not a long', 1, super_column => 'sc');
SELECT * FROM cfstore.get('ApiStd', 'Long', 'not a long');
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 'not a long', super_column => true);
SELECT cfstore.insert('ApiStd', 'Long', 'not a long', 1, 'v', super_column => 'sc');
SELECT cfstore.remove('ApiStd', 'Long', 'not a long', super_column => 'sc');
-- slice ranges
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', count => -1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col5', finish => 'col3');
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'bounds', start => 'col3', finish => 'col5', reversed => true);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, start => 2, finish => -2);
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, start => -2, finish => 2, reversed => true);
SELECT * FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => 1, finish => 5);
SELECT * FROM cfstore.get_slice('ApiStd', 'Rev', 'r', start => 5, finish => 1, reversed => true);
SELECT * FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a:!', finish => 'a');
SELECT * FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a', finish => 'a:!', reversed => true);
-- ttl
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'c', 'v', writetime => 1, ttl => 0);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'c', 'v', writetime => 1, ttl => -1);
SELECT cfstore.insert('ApiStd', 'Utf8', 'k', 'c', 'v', writetime => 1, ttl => 630720001);
SELECT cfstore.insert('ApiStd', 'Ttl', 'k', 'c', 'v', writetime => 1, ttl => 2147483647);
-- counter operations on a normal column family
SELECT cfstore.add('ApiStd', 'Bytes', 'k', 'c', 1);
SELECT cfstore.remove_counter('ApiStd', 'Bytes', 'k', 'c');
SELECT cfstore.remove_counter('ApiStd', 'Bytes', 'k');
-- a statement that fails after a successful write writes nothing
SELECT cfstore.insert('ApiStd', 'Bytes', 'stmt', c, 'v', writetime => 1) FROM (VALUES ('a'), ('')) AS t(c);
-- nothing was written
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'stmt');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'k');
SELECT * FROM cfstore.get_slice('ApiStd', 'Utf8', 'k');
SELECT * FROM cfstore.get_slice('ApiStd', 'Long', 1, start => 5, finish => 5);
SELECT * FROM cfstore.get_slice('ApiStd', 'Comp', 'k', start => 'a', finish => 'a:!');
SELECT * FROM cfstore.get_slice('ApiStd', 'Tuuid', 't', count => 0);
SELECT column_name FROM cfstore.get_slice('ApiStd', 'Ttl', 'k');
SELECT cfstore.verify('ApiStd', 'Bytes');
SELECT cfstore.verify('ApiStd', 'Utf8');
SELECT cfstore.verify('ApiStd', 'Long');

-- ---------------------------------------------------------------------------
-- 15. Writes are transactional and visible to the writing transaction
-- ---------------------------------------------------------------------------
BEGIN;
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx', 'a', 'in tx', writetime => 1);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
SAVEPOINT s1;
SELECT cfstore.remove('ApiStd', 'Bytes', 'tx', writetime => 2);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
ROLLBACK TO SAVEPOINT s1;
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx', 'a', 'older in tx', writetime => 0);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx', 'b', 'b', writetime => 1);
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
ROLLBACK;
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
BEGIN;
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx', 'c', 'committed', writetime => 1);
COMMIT;
SELECT column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx');
-- the order of writes inside a transaction is irrelevant, timestamps decide
-- (ColumnFamilyStoreTest.testIndexDeletions)
BEGIN;
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx1', 'c', 'v', writetime => 1);
SELECT cfstore.remove('ApiStd', 'Bytes', 'tx1', writetime => 2);
SELECT cfstore.remove('ApiStd', 'Bytes', 'tx2', writetime => 3);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx2', 'c', 'v', writetime => 4);
SELECT cfstore.insert('ApiStd', 'Bytes', 'tx3', 'c', 'v', writetime => 6);
SELECT cfstore.remove('ApiStd', 'Bytes', 'tx3', writetime => 5);
COMMIT;
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx1');
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx2');
SELECT key, column_name, value FROM cfstore.get_slice('ApiStd', 'Bytes', 'tx3');
SELECT cfstore.verify('ApiStd', 'Bytes');

-- ---------------------------------------------------------------------------
-- 16. truncate: all data goes, whatever the timestamps (tombstones too)
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiStd', 'Bytes', 'trunc', 'a', 'v', writetime => 9223372036854775807);
SELECT cfstore.truncate('ApiStd', 'Bytes');
SELECT count(*) FROM :bytes_rel;
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'row1');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'trunc');
SELECT cfstore.insert('ApiStd', 'Bytes', 'rowdel', 'a', 'before the old tombstones', writetime => 1);
SELECT cfstore.insert('ApiStd', 'Bytes', 'trunc', 'a', 'small', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'rowdel');
SELECT * FROM cfstore.get_slice('ApiStd', 'Bytes', 'trunc');
-- the other column families keep their data
SELECT count(*) FROM cfstore.get_slice('ApiStd', 'Long', 1);
SELECT cfstore.truncate('ApiStd', 'Nope');
SELECT cfstore.truncate('NoKs', 'Bytes');
SELECT cfstore.verify('ApiStd', 'Bytes');

SELECT cfstore.drop_keyspace('ApiStd');

-- truncate in the transaction that made the column family (the file is cut
-- in place): the reads and writes after it find the empty relation
BEGIN;
SELECT cfstore.create_keyspace('TruncNew');
SELECT cfstore.create_column_family('TruncNew', 'S', comparator => 'UTF8Type', key_validation_class => 'UTF8Type');
SELECT cfstore.insert('TruncNew', 'S', 'k', 'a', 'x'::bytea);
SELECT cfstore.truncate('TruncNew', 'S');
SELECT * FROM cfstore.get_slice('TruncNew', 'S', 'k');
SELECT cfstore.insert('TruncNew', 'S', 'k', 'b', 'y'::bytea);
SELECT column_name, value FROM cfstore.get_slice('TruncNew', 'S', 'k');
COMMIT;
SELECT column_name, value FROM cfstore.get_slice('TruncNew', 'S', 'k');
SELECT cfstore.drop_keyspace('TruncNew');

-- a read-only transaction writes nothing, whatever the way in (as heap's DML)
SELECT cfstore.create_keyspace('RoKs');
SELECT cfstore.create_column_family('RoKs', 'S', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'UTF8Type');
SELECT cfstore.create_column_family('RoKs', 'C', comparator => 'UTF8Type', key_validation_class => 'UTF8Type',
                                    default_validation_class => 'CounterColumnType');
BEGIN READ ONLY;
SELECT cfstore.insert('RoKs', 'S', 'k', 'a', 'v');
ROLLBACK;
BEGIN READ ONLY;
SELECT cfstore.remove('RoKs', 'S', 'k');
ROLLBACK;
BEGIN READ ONLY;
SELECT cfstore._remove_range('RoKs', 'S', 'k', 'a', 'b');
ROLLBACK;
BEGIN READ ONLY;
SELECT cfstore.add('RoKs', 'C', 'k', 'n', 1);
ROLLBACK;
BEGIN READ ONLY;
SELECT cfstore.batch_mutate('RoKs', '{"k": {"S": [{"column": {"name": "a", "value": "v", "timestamp": 1}}]}}');
ROLLBACK;
BEGIN READ ONLY;
SELECT cfstore.cql($$INSERT INTO "S" (key, column1, value) VALUES ('k', 'a', 'v')$$, 'RoKs');
ROLLBACK;
BEGIN READ ONLY;
INSERT INTO "RoKs"."S" VALUES ('k', 'a', 'v');
ROLLBACK;
SET default_transaction_read_only = on;
SELECT count(*) FROM cfstore.get_slice('RoKs', 'S', 'k');
RESET default_transaction_read_only;
SELECT cfstore.drop_keyspace('RoKs');
