-- Long row keys, super columns, names and values (doc/semantics.md §1: keys and
-- names up to 65535 bytes, values of any size): they live in overflow
-- pages and the tree refers to them, so order, slices, reconciliation,
-- splits (separators that are long keys), VACUUM FULL and verify must see
-- the full bytes.  Keys and names here share long prefixes and differ only
-- at their ends, so every comparison has to read the whole part.
\set VERBOSITY terse

SELECT cfstore.create_keyspace('Long');
SELECT cfstore.create_column_family('Long', 'Std', comparator => 'UTF8Type',
         key_validation_class => 'UTF8Type', default_validation_class => 'BytesType');
SELECT cfstore.create_column_family('Long', 'Wide', comparator => 'UTF8Type');
SELECT cfstore.create_column_family('Long', 'Sup', column_type => 'Super',
         comparator => 'UTF8Type', subcomparator => 'UTF8Type');

-- 300 rows whose keys are 500 bytes and differ in their last 3: the leaves
-- split between rows, so separators and high keys are long keys
DO $$
BEGIN
  FOR i IN 1..300 LOOP
    PERFORM cfstore.insert('Long', 'Std', repeat('k', 497) || lpad(i::text, 3, '0'),
                           repeat('n', 400) || c, 'v' || i || c, writetime => 1)
      FROM unnest(ARRAY['a', 'b', 'c']) AS c;
  END LOOP;
END $$;
SELECT cfstore._storage_relation('Long', 'Std') AS std_rel \gset
SELECT cfstore.verify('Long', 'Std');
SELECT height > 1 AS split, live_cells FROM cfstore.stats('Long', 'Std');
SELECT count(*), count(DISTINCT key), min(length(key)), max(length(column_name))
  FROM :std_rel;

-- a slice of one row: every name read back whole, in order
SELECT right(key, 3) AS key_end, length(column_name) AS name_len,
       right(column_name, 1) AS name_end, value
  FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '150');
-- bounds that are long names, reversed, count
SELECT right(column_name, 1), value
  FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '150',
                         start => repeat('n', 400) || 'c', finish => repeat('n', 400) || 'b', reversed => true);
SELECT right(column_name, 1), value
  FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '299', start => repeat('n', 400) || 'b', count => 1);
-- a key that differs from a stored one only in its last byte is another row
SELECT count(*) FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '301');
SELECT count(*) FROM cfstore.get_slice('Long', 'Std', repeat('k', 496) || '150');

-- one row of 600 long names spans leaves: separators inside it are long names
DO $$
BEGIN
  FOR i IN 1..600 LOOP
    PERFORM cfstore.insert('Long', 'Wide', 'wide', repeat('n', 400) || lpad(i::text, 3, '0'), i::text, writetime => 1);
  END LOOP;
END $$;
SELECT leaf_pages > 1 AS spans_leaves FROM cfstore.stats('Long', 'Wide');
SELECT count(*) FROM cfstore.get_slice('Long', 'Wide', 'wide', count => 1000);
SELECT right(column_name, 3), value
  FROM cfstore.get_slice('Long', 'Wide', 'wide', start => repeat('n', 400) || '300', reversed => true, count => 3);
SELECT right(column_name, 3), value
  FROM cfstore.get_slice('Long', 'Wide', 'wide', start => repeat('n', 400) || '2995', count => 2);
SELECT cfstore.verify('Long', 'Wide');

-- the limits: a 65535-byte key, super column and name, values of 3000 and
-- 1,000,000 bytes, in one Super column family row
SELECT cfstore.insert('Long', 'Sup', repeat('K', 65535), repeat('N', 65535), repeat('v', 3000),
                      super_column => repeat('S', 65535), writetime => 1);
SELECT cfstore.insert('Long', 'Sup', repeat('K', 65535), 'short', repeat('w', 1000000),
                      super_column => repeat('S', 65535), writetime => 1);
SELECT cfstore.insert('Long', 'Sup', repeat('K', 65535), 'x', 'in another super column',
                      super_column => repeat('S', 65534) || 'T', writetime => 1);
SELECT length(key), length(super_column), length(column_name), length(value), md5(value) = md5(repeat('w', 1000000)) AS same
  FROM cfstore.get_slice('Long', 'Sup', repeat('K', 65535));
SELECT length(column_name), length(value)
  FROM cfstore.get_slice('Long', 'Sup', repeat('K', 65535), super_column => repeat('S', 65534) || 'T');
SELECT length(column_name), left(value, 3)
  FROM cfstore.get('Long', 'Sup', repeat('K', 65535), repeat('N', 65535), super_column => repeat('S', 65535));

-- reconciliation of long values: a newer one wins, a tie goes to the greater
SELECT cfstore.insert('Long', 'Std', 'tie', 'c', repeat('a', 5000), writetime => 7);
SELECT cfstore.insert('Long', 'Std', 'tie', 'c', repeat('b', 5000), writetime => 7);
SELECT cfstore.insert('Long', 'Std', 'tie', 'c', repeat('a', 4999), writetime => 6);
SELECT left(value, 1), length(value) FROM cfstore.get('Long', 'Std', 'tie', 'c');
SELECT cfstore.insert('Long', 'Std', 'tie', 'c', repeat('c', 2001), writetime => 8);
SELECT left(value, 1), length(value) FROM cfstore.get('Long', 'Std', 'tie', 'c');
-- a tombstone of a long name hides it
SELECT cfstore.remove('Long', 'Std', repeat('k', 497) || '150', repeat('n', 400) || 'b', writetime => 2);
SELECT right(column_name, 1) FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '150');
-- a rolled-back write leaves nothing visible (its chain stays, unreferenced by live data)
BEGIN;
SELECT cfstore.insert('Long', 'Std', repeat('r', 1000), repeat('n', 1000), repeat('x', 9000), writetime => 1);
ROLLBACK;
SELECT count(*) FROM cfstore.get_slice('Long', 'Std', repeat('r', 1000));
SELECT cfstore.verify('Long', 'Std');
SELECT cfstore.verify('Long', 'Sup');
SELECT cfstore.verify('Long', 'Wide');

-- VACUUM FULL rewrites the relation: chains are written anew
VACUUM FULL :std_rel;
SELECT cfstore.verify('Long', 'Std');
SELECT count(*), count(DISTINCT key) FROM :std_rel;
SELECT right(column_name, 1), value
  FROM cfstore.get_slice('Long', 'Std', repeat('k', 497) || '150', reversed => true);
SELECT left(value, 1), length(value) FROM cfstore.get('Long', 'Std', 'tie', 'c');

SELECT cfstore.drop_keyspace('Long');
