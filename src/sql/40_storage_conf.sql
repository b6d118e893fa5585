-- ---------------------------------------------------------------------------
-- Migration: Cassandra 0.6 storage-conf.xml (doc/semantics.md §12.1).
--
-- Accepts a whole <Storage> document, a <Keyspaces> element or a single
-- <Keyspace> element.  Each keyspace is created with create_keyspace and
-- each column family with create_column_family, in one transaction: a
-- file with one error creates nothing.  0.6's error texts are kept where
-- 0.6 had them.  A keyspace without ReplicaPlacementStrategy or
-- ReplicationFactor gets SimpleStrategy with factor 1 (0.6 required them;
-- published schema snippets often leave them out).  Cache settings are
-- validated and otherwise ignored: PostgreSQL's buffer cache replaces them.
-- ---------------------------------------------------------------------------

-- Raise unless a 0.6 cache size is a number, a fraction or "N%".
CREATE FUNCTION cfstore._check_cache_size(attr text, value text, cf text) RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF value IS NOT NULL AND value !~ '^\s*[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?%?\s*$' THEN
    PERFORM cfstore._error(format('Invalid %s value "%s" for columnfamily %s', attr, value, cf),
      hint => 'Use an absolute number, a fraction, or a percentage such as "10%".');
  END IF;
END $$;

-- The comparator named by a 0.6 CompareWith / CompareSubcolumnsWith
-- attribute (absent: BytesType), with 0.6's error for an unknown class.
CREATE FUNCTION cfstore._storage_conf_type(attr text, value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RETURN cfstore.type_name(coalesce(value, 'BytesType'));
EXCEPTION WHEN invalid_parameter_value THEN
  PERFORM cfstore._error(format('Unable to load class %s for %s attribute',
    CASE WHEN strpos(value, '.') > 0 THEN value ELSE 'org.apache.cassandra.db.marshal.' || value END, attr));
  RETURN NULL;
END $$;

CREATE FUNCTION cfstore.load_storage_conf(xml text)
RETURNS TABLE (keyspace text, column_family text) LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  doc pg_catalog.xml;
  root text;
  ks_path text;
  gc_text text;
  gc_grace integer := 864000;
  ks record;
  cf record;
  attr text;
  strategy text;
  rf integer;
  cmp text;
  subcmp text;
BEGIN
  doc := xmlparse(DOCUMENT xml);
  root := (xpath('name(/*)', doc))[1]::text;
  ks_path := CASE root WHEN 'Storage' THEN '/Storage/Keyspaces/Keyspace'
                       WHEN 'Keyspaces' THEN '/Keyspaces/Keyspace'
                       WHEN 'Keyspace' THEN '/Keyspace' END;
  IF ks_path IS NULL THEN
    PERFORM cfstore._error(format('load_storage_conf expects a <Storage>, <Keyspaces> or <Keyspace> element (got <%s>)', root));
  END IF;

  IF root = 'Storage' THEN
    SELECT t.gc INTO gc_text FROM XMLTABLE('/Storage' PASSING doc COLUMNS gc text PATH 'GCGraceSeconds') t;
    IF gc_text IS NOT NULL THEN
      IF btrim(gc_text) !~ '^[0-9]{1,10}$' THEN
        PERFORM cfstore._error(format('GCGraceSeconds must be a non-negative integer (got "%s")', gc_text));
      ELSIF btrim(gc_text)::bigint > 2147483647 THEN
        PERFORM cfstore._error(format('GCGraceSeconds must be at most 2147483647 (got "%s")', gc_text));
      END IF;
      gc_grace := btrim(gc_text)::integer;
    END IF;
  END IF;

  FOR ks IN
    SELECT * FROM XMLTABLE(ks_path PASSING doc COLUMNS
        node pg_catalog.xml PATH '.',
        name text PATH '@Name',
        strategy text PATH 'ReplicaPlacementStrategy',
        rf text PATH 'ReplicationFactor')
  LOOP
    IF ks.name IS NULL THEN
      PERFORM cfstore._error('Table name attribute is required');
    END IF;
    IF lower(ks.name) = 'system' THEN
      PERFORM cfstore._error('''system'' is a reserved table name for Cassandra internals');
    END IF;
    strategy := 'SimpleStrategy';
    IF ks.strategy IS NOT NULL THEN
      BEGIN
        strategy := cfstore._strategy_class(btrim(ks.strategy));
      EXCEPTION WHEN invalid_parameter_value THEN
        PERFORM cfstore._error(format('Invalid replicaplacementstrategy class %s', btrim(ks.strategy)));
      END;
    END IF;
    rf := 1;
    IF ks.rf IS NOT NULL THEN
      IF btrim(ks.rf) !~ '^-?[0-9]{1,9}$' THEN
        PERFORM cfstore._error(format('ReplicationFactor must be an integer (got "%s") in keyspace %s', ks.rf, ks.name));
      END IF;
      rf := btrim(ks.rf)::integer;
    END IF;
    PERFORM cfstore.create_keyspace(ks.name, rf, strategy);

    FOR cf IN
      SELECT * FROM XMLTABLE('/*/ColumnFamily' PASSING ks.node COLUMNS
          node pg_catalog.xml PATH '.',
          name text PATH '@Name',
          column_type text PATH '@ColumnType',
          column_sort text PATH '@ColumnSort',
          compare_with text PATH '@CompareWith',
          compare_sub text PATH '@CompareSubcolumnsWith',
          comment_attr text PATH '@Comment',
          comment_elem text PATH 'Comment',
          keys_cached text PATH '@KeysCached',
          rows_cached text PATH '@RowsCached',
          keys_fraction text PATH '@KeysCachedFraction',
          row_save text PATH '@RowCacheSavePeriodInSeconds',
          key_save text PATH '@KeyCacheSavePeriodInSeconds')
    LOOP
      IF cf.name IS NULL THEN
        PERFORM cfstore._error('ColumnFamily name attribute is required');
      END IF;
      IF strpos(cf.name, '-') > 0 THEN
        PERFORM cfstore._error('ColumnFamily names cannot contain hyphens');
      END IF;
      IF coalesce(cf.column_type, 'Standard') NOT IN ('Standard', 'Super') THEN
        PERFORM cfstore._error(format('ColumnFamily %s has invalid type %s', cf.name, cf.column_type));
      END IF;
      IF cf.column_sort IS NOT NULL THEN
        PERFORM cfstore._error('ColumnSort is no longer an accepted attribute.  Use CompareWith instead.');
      END IF;
      FOR attr IN SELECT a.name FROM XMLTABLE('/*/@*' PASSING cf.node COLUMNS name text PATH 'name(.)') a LOOP
        IF attr NOT IN ('Name', 'ColumnType', 'CompareWith', 'CompareSubcolumnsWith', 'Comment',
                        'KeysCached', 'RowsCached', 'KeysCachedFraction', 'RowCacheSavePeriodInSeconds',
                        'KeyCacheSavePeriodInSeconds', 'PreloadRowCache', 'FlushPeriodInMinutes') THEN
          RAISE WARNING 'ignoring unknown ColumnFamily attribute % of columnfamily %', attr, cf.name;
        END IF;
      END LOOP;
      cmp := cfstore._storage_conf_type('CompareWith', cf.compare_with);
      subcmp := NULL;
      IF cf.column_type = 'Super' THEN
        subcmp := cfstore._storage_conf_type('CompareSubcolumnsWith', cf.compare_sub);
      ELSIF cf.compare_sub IS NOT NULL THEN
        PERFORM cfstore._error(format('CompareSubcolumnsWith is only a valid attribute on super columnfamilies (not regular columnfamily %s)', cf.name));
      END IF;
      PERFORM cfstore._check_cache_size('KeysCached', cf.keys_cached, cf.name);
      PERFORM cfstore._check_cache_size('RowsCached', cf.rows_cached, cf.name);
      PERFORM cfstore._check_cache_size('KeysCachedFraction', cf.keys_fraction, cf.name);
      IF cf.row_save !~ '^\s*[0-9]+\s*$' OR cf.key_save !~ '^\s*[0-9]+\s*$' THEN
        PERFORM cfstore._error(format('Cache save periods must be non-negative integers (columnfamily %s)', cf.name));
      END IF;

      PERFORM cfstore.create_column_family(ks.name, cf.name,
        column_type => coalesce(cf.column_type, 'Standard'),
        comparator => cmp,
        subcomparator => subcmp,
        gc_grace_seconds => gc_grace,
        comment => coalesce(cf.comment_attr, cf.comment_elem));
      keyspace := ks.name;
      column_family := cf.name;
      RETURN NEXT;
    END LOOP;
  END LOOP;
END $$;
COMMENT ON FUNCTION cfstore.load_storage_conf(text) IS
  'Create the keyspaces and column families of a Cassandra 0.6 storage-conf.xml (a <Storage>, <Keyspaces> or <Keyspace> element); all or nothing';
