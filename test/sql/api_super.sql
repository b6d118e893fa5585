-- The function API on Super column families (README.md "Reading and writing";
-- doc/semantics.md §1, §5, §8.1, §8.2, §9, §11): subcolumns, whole
-- super columns, slices over super columns and over subcolumns, super
-- column and row tombstones, resurrection, and the shape errors.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('ApiSuper');
-- super columns by UTF8Type, subcolumns by LongType
SELECT cfstore.create_column_family('ApiSuper', 'Super1', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'LongType',
         key_validation_class => 'UTF8Type', default_validation_class => 'UTF8Type',
         column_metadata => '[{"column_name": "1000", "validation_class": "LongType"}]');
-- super columns by LongType, subcolumns by UTF8Type
SELECT cfstore.create_column_family('ApiSuper', 'SuperLong', column_type => 'Super',
         comparator => 'LongType', subcomparator => 'UTF8Type', default_validation_class => 'UTF8Type');
-- no subcomparator: BytesType
SELECT cfstore.create_column_family('ApiSuper', 'SuperBytes', column_type => 'Super');

-- ---------------------------------------------------------------------------
-- 1. Subcolumns: insert, get one, get a whole super column
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v5', writetime => 1, super_column => 'sc1');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 4::bigint, 'v4', writetime => 1, super_column => 'sc1'::text);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', '6', 'v6', writetime => 1, super_column => 'sc1'::varchar);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 7, 'v7', writetime => 1, super_column => 'sc2');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', -1, 'v-1', writetime => 1, super_column => '\x736333'::bytea);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 1000, 42, writetime => 1, super_column => 'sc3');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k2', 1, 'other row', writetime => 1, super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 5, super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', column_name => 1000, super_column => 'sc3');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc3');
-- missing subcolumn, super column, row: no rows
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 8, super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 5, super_column => 'sc2');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k9', super_column => 'sc1');
SELECT cfstore.verify('ApiSuper', 'Super1');

-- ---------------------------------------------------------------------------
-- 2. get_slice without super_column: the items are super columns, count
--    counts super columns, each comes with all its live subcolumns in
--    ascending order, also when reversed
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', count => 1);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', count => 2);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', reversed => true, count => 2);
SELECT count(*) FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', count => 0);
-- bounds apply to super column names: inclusive, need not exist
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc2');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc15', finish => 'sc25');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', finish => 'sc2');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc25', reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc3', finish => 'sc2', reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => '', finish => 'sc1', reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc4');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'zz', reversed => true, count => 1);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k2', start => 'zz', reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k2', start => 'a');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k2');

-- ---------------------------------------------------------------------------
-- 3. get_slice with super_column: the items are that super column's
--    subcolumns, in subcomparator order
-- ---------------------------------------------------------------------------
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', count => 2);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', reversed => true, count => 2);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => 5);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => 5, reversed => true);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => '4', finish => 5::numeric);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => 100);
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'nope');
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', count => 0);

-- ---------------------------------------------------------------------------
-- 4. Subcolumn tombstones: deletion wins ties; an older write stays
--    invisible, a newer one resurrects
-- ---------------------------------------------------------------------------
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', 5, super_column => 'sc1', writetime => 1);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 6, 'v6 older', writetime => 0, super_column => 'sc1');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', 6, super_column => 'sc1', writetime => 0);
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 5, super_column => 'sc1');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', finish => 'sc1');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v5 again', writetime => 1, super_column => 'sc1');
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v5 newer', writetime => 2, super_column => 'sc1');
SELECT column_name, value, writetime FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
-- a super column whose subcolumns are all deleted is skipped, and not counted
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', 7, super_column => 'sc2', writetime => 5);
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc2');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', count => 2);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc2', reversed => true, count => 1);
SELECT cfstore.verify('ApiSuper', 'Super1');

-- ---------------------------------------------------------------------------
-- 5. Super column tombstones (remove with super_column only): they shadow
--    every subcolumn with a timestamp <= theirs
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k3', n, 'v' || n, writetime => 10, super_column => 'a')
     FROM generate_series(1, 3) AS n;
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k3', n, 'v' || n, writetime => 10, super_column => 'b')
     FROM generate_series(1, 3) AS n;
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k3', 4, 'newer', writetime => 30, super_column => 'b');
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k3', n, 'v' || n, writetime => 10, super_column => 'c')
     FROM generate_series(1, 3) AS n;
END $$;
SELECT cfstore.remove('ApiSuper', 'Super1', 'k3', super_column => 'b', writetime => 20);
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k3', super_column => 'a', writetime => 10);
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k3', super_column => 'a');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k3', 1, super_column => 'a');
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', super_column => 'a');
SELECT column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', super_column => 'b');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', count => 1);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', reversed => true, count => 2);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', start => 'b', reversed => true, count => 1);
-- writes after the super column tombstone: equal timestamp invisible,
-- newer visible (only that subcolumn comes back)
SELECT cfstore.insert('ApiSuper', 'Super1', 'k3', 1, 'tie', writetime => 10, super_column => 'a');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k3', 2, 'back', writetime => 11, super_column => 'a');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3');
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k3', super_column => 'a');
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', super_column => 'a', reversed => true);
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k3', super_column => 'a', start => 3, reversed => true, count => 1);
-- an older super column tombstone changes nothing
SELECT cfstore.remove('ApiSuper', 'Super1', 'k3', super_column => 'c', writetime => 9);
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k3', super_column => 'c');
-- a super column tombstone does not touch the same names in other super
-- columns or rows
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => 'sc1');
SELECT cfstore.verify('ApiSuper', 'Super1');

-- ---------------------------------------------------------------------------
-- 6. Row tombstones in a Super column family
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k4', n, 'v' || n, writetime => 10, super_column => sc)
     FROM generate_series(1, 2) AS n, unnest(ARRAY['a', 'b', 'c']) AS sc;
  PERFORM cfstore.insert('ApiSuper', 'Super1', 'k4', 3, 'newer', writetime => 30, super_column => 'c');
END $$;
SELECT cfstore.remove('ApiSuper', 'Super1', 'k4', writetime => 20);
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', reversed => true);
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k4', super_column => 'a');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k4', 1, super_column => 'c');
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', super_column => 'b');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', count => 1);
-- resurrection: only the newer subcolumns
SELECT cfstore.insert('ApiSuper', 'Super1', 'k4', 1, 'tie', writetime => 20, super_column => 'a');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k4', 2, 'back', writetime => 21, super_column => 'a');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4');
SELECT column_name, value FROM cfstore.get('ApiSuper', 'Super1', 'k4', super_column => 'a');
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', super_column => 'a', reversed => true);
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', super_column => 'c', start => 2, count => 1);
-- a super column tombstone newer than the row tombstone, a subcolumn
-- written between the two, and one after both
SELECT cfstore.insert('ApiSuper', 'Super1', 'k4', 5, 'between', writetime => 25, super_column => 'b');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k4', super_column => 'b', writetime => 26);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k4', 6, 'after', writetime => 27, super_column => 'b');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', reversed => true);
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', super_column => 'b');
SELECT column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4', super_column => 'b', reversed => true);
-- the storage relation holds the live reconciled subcolumns
SELECT cfstore._storage_relation('ApiSuper', 'Super1') AS super1_rel \gset
SELECT key, super_column, column_name, value FROM :super1_rel
 WHERE key = 'k4'::bytea ORDER BY key, super_column, column_name;
SELECT cfstore.verify('ApiSuper', 'Super1');

-- ---------------------------------------------------------------------------
-- 7. LongType super column names; no subcomparator = BytesType
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  PERFORM cfstore.insert('ApiSuper', 'SuperLong', 'L', c, 's' || sc || c, writetime => 1, super_column => sc)
     FROM unnest(ARRAY[-10, 1, 3, 256]) AS sc, unnest(ARRAY['y', 'x']) AS c;
END $$;
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L', start => 2, reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L', start => -11, finish => 2::numeric);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L', super_column => 3::smallint, reversed => true);
SELECT super_column, column_name FROM cfstore.get('ApiSuper', 'SuperLong', 'L', 'x', super_column => '\x0000000000000100'::bytea);
SELECT cfstore.insert('ApiSuper', 'SuperBytes', 'B', '\x80'::bytea, '\x00'::bytea, writetime => 1, super_column => 'sc');
SELECT cfstore.insert('ApiSuper', 'SuperBytes', 'B', 'a', 'text', writetime => 1, super_column => 'sc');
SELECT cfstore.insert('ApiSuper', 'SuperBytes', 'B', 'b', '', writetime => 1, super_column => '\x01'::bytea);
SELECT * FROM cfstore.get_slice('ApiSuper', 'SuperBytes', 'B');
-- the limits of doc/semantics.md §1: super column and subcolumn names up to 65535 bytes
SELECT cfstore.insert('ApiSuper', 'SuperBytes', 'B', repeat('n', 65535), 'long names', writetime => 1, super_column => repeat('s', 65535));
SELECT length(super_column), length(column_name), value FROM cfstore.get('ApiSuper', 'SuperBytes', 'B', super_column => repeat('s', 65535));
SELECT cfstore.verify('ApiSuper', 'SuperLong');
SELECT cfstore.verify('ApiSuper', 'SuperBytes');

-- ---------------------------------------------------------------------------
-- 8. A wide super row over many pages
-- ---------------------------------------------------------------------------
DO $$
BEGIN
  FOR s IN 1..300 LOOP
    PERFORM cfstore.insert('ApiSuper', 'SuperLong', 'wide', c, repeat('x', 100), writetime => 5, super_column => s)
       FROM unnest(ARRAY['a', 'b', 'c', 'd', 'e']) AS c;
  END LOOP;
  PERFORM cfstore.remove('ApiSuper', 'SuperLong', 'wide', writetime => 10);
  FOR s IN 50..300 BY 50 LOOP
    PERFORM cfstore.insert('ApiSuper', 'SuperLong', 'wide', 'c', 'back', writetime => 11, super_column => s);
  END LOOP;
  PERFORM cfstore.insert('ApiSuper', 'SuperLong', 'wide', 'a', 'back', writetime => 11, super_column => 150);
  PERFORM cfstore.remove('ApiSuper', 'SuperLong', 'wide', super_column => 200, writetime => 12);
  PERFORM cfstore.remove('ApiSuper', 'SuperLong', 'wide', 'c', super_column => 250, writetime => 12);
  PERFORM cfstore.insert('ApiSuper', 'SuperLong', 'wide', 'e', 'tie', writetime => 10, super_column => 1);
END $$;
SELECT string_agg(super_column || '/' || column_name, ',' ORDER BY n) AS items
  FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide') WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(super_column || '/' || column_name, ',' ORDER BY n) AS items
  FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', reversed => true, count => 3) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(super_column || '/' || column_name, ',' ORDER BY n) AS items
  FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', start => 199, reversed => true, count => 2) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(super_column || '/' || column_name, ',' ORDER BY n) AS items
  FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', start => 101, finish => 260) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT string_agg(super_column || '/' || column_name, ',' ORDER BY n) AS items
  FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', start => 260, finish => 51, reversed => true) WITH ORDINALITY AS s(key, super_column, column_name, value, writetime, ttl, n);
SELECT super_column, column_name, value FROM cfstore.get('ApiSuper', 'SuperLong', 'wide', super_column => 150);
SELECT * FROM cfstore.get('ApiSuper', 'SuperLong', 'wide', super_column => 151);
SELECT * FROM cfstore.get('ApiSuper', 'SuperLong', 'wide', super_column => 200);
SELECT * FROM cfstore.get('ApiSuper', 'SuperLong', 'wide', super_column => 250);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', super_column => 150, reversed => true);
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'wide', super_column => 250);
SELECT super_column, column_name, value FROM cfstore.get('ApiSuper', 'SuperLong', 'wide', 'c', super_column => 300);
SELECT cfstore.verify('ApiSuper', 'SuperLong');

-- ---------------------------------------------------------------------------
-- 9. Shape errors (raised before any argument is converted) and invalid
--    requests
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v', writetime => 1);
SELECT cfstore.insert('ApiSuper', 'Super1', '', true, 'v', writetime => 1);
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', 5, writetime => 1);
SELECT cfstore.remove('ApiSuper', 'Super1', '', true, writetime => 1);
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 5);
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', '', true);
SELECT cfstore.add('ApiSuper', 'Super1', 'k1', 5, 1, super_column => 'sc1');
SELECT cfstore.remove_counter('ApiSuper', 'Super1', 'k1', 5, super_column => 'sc1');
-- super column names: not empty, at most 65535 bytes, valid for the comparator
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v', writetime => 1, super_column => '');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => '');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', 5, super_column => ''::bytea);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => '');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', super_column => '', writetime => 1);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v', writetime => 1, super_column => repeat('s', 65536));
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', super_column => repeat('s', 65536));
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v', writetime => 1, super_column => '\xff'::bytea);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => '\xff'::bytea);
SELECT cfstore.insert('ApiSuper', 'SuperLong', 'L', 'x', 'v', writetime => 1, super_column => '\x01'::bytea);
SELECT cfstore.remove('ApiSuper', 'SuperLong', 'L', super_column => '\x0102'::bytea, writetime => 1);
SELECT * FROM cfstore.get('ApiSuper', 'SuperLong', 'L', super_column => '\x01'::bytea);
SELECT * FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L', start => '\x01'::bytea);
-- subcolumn names: not empty, valid for the subcomparator
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', ''::bytea, 'v', writetime => 1, super_column => 'sc1');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', '\x01'::bytea, 'v', writetime => 1, super_column => 'sc1');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', '\x01'::bytea, super_column => 'sc1');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', '\x01'::bytea, super_column => 'sc1', writetime => 1);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => '\x01'::bytea, super_column => 'sc1');
SELECT cfstore.remove('ApiSuper', 'Super1', 'k1', ''::bytea, super_column => 'sc1', writetime => 10);
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k1', ''::bytea, super_column => 'sc1');
SELECT cfstore.insert('ApiSuper', 'SuperLong', 'L', '\xff'::bytea, 'v', writetime => 1, super_column => 1);
-- values: the subcolumn's metadata validator, else default_validation_class
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 1000, '\x01'::bytea, writetime => 1, super_column => 'sc1');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 4, '\xff'::bytea, writetime => 1, super_column => 'sc1');
-- keys
SELECT cfstore.insert('ApiSuper', 'Super1', '', 5, 'v', writetime => 1, super_column => 'sc1');
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', repeat('k', 65536));
-- slice ranges
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', count => -1);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', count => -1);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc2', finish => 'sc1');
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', start => 'sc1', finish => 'sc2', reversed => true);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => 6, finish => 4);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1', super_column => 'sc1', start => 4, finish => 6, reversed => true);
SELECT cfstore.insert('ApiSuper', 'Super1', 'k1', 5, 'v', writetime => 1, ttl => 0, super_column => 'sc1');
-- get_slice validates the column parent before the key
-- (CassandraServer.multigetSliceInternal)
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', '', super_column => '\xff'::bytea);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', '', super_column => 'sc1', start => '\x01'::bytea);
-- nothing was written
SELECT super_column, column_name, value, writetime FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'SuperLong', 'L');
SELECT cfstore.verify('ApiSuper', 'Super1');
SELECT cfstore.verify('ApiSuper', 'SuperLong');

-- ---------------------------------------------------------------------------
-- 10. TTL on subcolumns; truncate
-- ---------------------------------------------------------------------------
SELECT cfstore.insert('ApiSuper', 'Super1', 'k5', 1, 'expiring', writetime => 1, ttl => 1, super_column => 'a');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k5', 1, 'stays', writetime => 1, ttl => 1000, super_column => 'b');
SELECT cfstore.insert('ApiSuper', 'Super1', 'k5', 2, 'expiring', writetime => 1, ttl => 1, super_column => 'b');
SELECT pg_sleep(2.1);
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k5');
SELECT * FROM cfstore.get('ApiSuper', 'Super1', 'k5', super_column => 'a');
SELECT super_column, column_name FROM cfstore.get_slice('ApiSuper', 'Super1', 'k5', count => 1);
SELECT cfstore.truncate('ApiSuper', 'Super1');
SELECT * FROM cfstore.get_slice('ApiSuper', 'Super1', 'k1');
SELECT count(*) FROM :super1_rel;
SELECT cfstore.insert('ApiSuper', 'Super1', 'k4', 1, 'after truncate', writetime => 1, super_column => 'b');
SELECT super_column, column_name, value FROM cfstore.get_slice('ApiSuper', 'Super1', 'k4');
SELECT cfstore.verify('ApiSuper', 'Super1');

SELECT cfstore.drop_keyspace('ApiSuper');
