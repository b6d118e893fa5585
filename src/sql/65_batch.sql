-- ---------------------------------------------------------------------------
-- batch_mutate (README.md "Reading and writing", doc/semantics.md §5, §7, §9): the
-- Thrift mutation_map as JSON, applied through insert, remove, add and
-- remove_counter.
--
-- Validation follows Cassandra 1.2's ThriftValidation, in its order: per
-- (key, column family) the column family, then the key, then each mutation
-- in list order, with its texts (a "column" in a Super column family is
-- "supercolumn parameter is not optional ...", not insert's "missing
-- mandatory super column name ...", and so on).  A deletion whose
-- predicate has a slice_range follows Cassandra 2.0: it deletes the
-- inclusive range (count is ignored; reversed reads the bounds in
-- traversal order), after every other mutation of the batch, so that the
-- order of a batch does not matter.  In a standard column family it is
-- Cassandra 2.0's range tombstone at the deletion's timestamp, which also
-- hides a column written into the range later with an older timestamp.
-- Super column families and counters have no range tombstones: there it
-- is a tombstone for each live column (or, in a Super column family
-- without super_column, each live super column) that get_slice finds in
-- the range.
--
-- All or nothing: the batch is one SQL statement, so an error anywhere
-- rolls back every mutation already applied.
-- ---------------------------------------------------------------------------

-- Raise a malformed-batch error (the JSON does not have the mutation_map's shape).
CREATE FUNCTION cfstore._batch_shape_error(message text) RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RAISE EXCEPTION USING MESSAGE = message, ERRCODE = '22023',
    HINT = 'batch_mutate takes {"<key>": {"<column family>": [{"column": {...}} | {"super_column": {...}} | '
           '{"counter_column": {...}} | {"counter_super_column": {...}} | {"deletion": {...}}, ...]}}.';
END $$;

-- Raise unless obj is a JSON object whose members are all in allowed.
CREATE FUNCTION cfstore._batch_members(obj jsonb, allowed text[], what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  member text;
BEGIN
  IF jsonb_typeof(obj) IS DISTINCT FROM 'object' THEN
    PERFORM cfstore._batch_shape_error(format('%s must be a JSON object', what));
  END IF;
  SELECT k INTO member FROM jsonb_object_keys(obj) k WHERE k <> ALL (allowed) LIMIT 1;
  IF member IS NOT NULL THEN
    PERFORM cfstore._batch_shape_error(format('unknown member "%s" in %s (expected %s)',
                                              member, what, array_to_string(allowed, ', ')));
  END IF;
END $$;

-- A name, value or bound of a batch in its text form: a JSON string as is,
-- a number or boolean as written; NULL when absent or null.
CREATE FUNCTION cfstore._batch_text(j jsonb, what text) RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF j IS NULL OR jsonb_typeof(j) = 'null' THEN
    RETURN NULL;
  ELSIF jsonb_typeof(j) IN ('string', 'number', 'boolean') THEN
    RETURN j #>> '{}';
  END IF;
  PERFORM cfstore._batch_shape_error(format('%s must be a JSON string, not %s', what, jsonb_typeof(j)));
  RETURN NULL;
END $$;

-- An integer of a batch (timestamp, ttl, counter value, count); NULL when absent or null.
CREATE FUNCTION cfstore._batch_int(j jsonb, what text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n numeric;
BEGIN
  IF j IS NULL OR jsonb_typeof(j) = 'null' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(j) = 'number' THEN
    n := (j #>> '{}')::numeric;
  ELSIF jsonb_typeof(j) = 'string' AND (j #>> '{}') ~ '^\s*[-+]?[0-9]+\s*$' THEN
    n := (j #>> '{}')::numeric;
  END IF;
  IF n IS NULL OR n <> trunc(n) OR n NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
    PERFORM cfstore._batch_shape_error(format('%s must be a 64-bit integer (got %s)', what, j::text));
  END IF;
  RETURN n::bigint;
END $$;

-- Raise Cassandra's error for a column name (or a name validated as one) that
-- the comparator type rejects (ThriftValidation.validateColumnNames).
CREATE FUNCTION cfstore._batch_check_name(type text, name text, kind text DEFAULT 'column')
RETURNS void LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b bytea;
BEGIN
  IF name IS NULL OR name = '' THEN        -- '' is the empty name for every type
    PERFORM cfstore._error(kind || ' name must not be empty');
  END IF;
  b := cfstore._arg_bytes(type, name);
  IF length(b) > 65535 THEN
    PERFORM cfstore._error(kind || ' name length must not be greater than 65535');
  ELSIF length(b) = 0 THEN
    PERFORM cfstore._error(kind || ' name must not be empty');
  END IF;
END $$;

-- Bytes as Thrift's toString prints them: upper-case hex, space-separated, at most 128.
CREATE FUNCTION cfstore._thrift_bytes(b bytea) RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(string_agg(upper(lpad(to_hex(get_byte(b, i)), 2, '0')), ' ' ORDER BY i), '')
         || CASE WHEN length(b) > 128 THEN '...' ELSE '' END
    FROM generate_series(0, least(length(b), 128) - 1) i
$$;

-- Apply one mutation (a JSON object) of a batch to row key of column family
-- cf; a slice-range deletion is validated only and returned, to be applied
-- after the rest of the batch (NULL otherwise).
CREATE FUNCTION cfstore._batch_mutation(ks text, cf text, rowkey text, m jsonb,
    column_type text, comparator text, subcomparator text, is_counter boolean)
RETURNS jsonb LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  is_super boolean := column_type = 'Super';
  kinds text[];
  has_deletion boolean;
  item jsonb;
  c jsonb;
  sc text;
  name text;
  val text;
  ts bigint;
  ttl bigint;
  pred jsonb;
  names jsonb;
  rng jsonb;
  start text;
  finish text;
  reversed boolean;
  cnt bigint;
  msg text;
BEGIN
  PERFORM cfstore._batch_members(m, '{column,super_column,counter_column,counter_super_column,deletion}',
                                 'a mutation');
  SELECT coalesce(array_agg(k ORDER BY k), '{}') INTO kinds
    FROM jsonb_each(m) e(k, v)
   WHERE k <> 'deletion' AND jsonb_typeof(v) <> 'null';
  has_deletion := jsonb_typeof(m -> 'deletion') IS DISTINCT FROM 'null' AND m ? 'deletion';
  IF (cardinality(kinds) > 0) = has_deletion THEN
    PERFORM cfstore._error('mutation must have one and only one of column_or_supercolumn or deletion');
  END IF;
  IF cardinality(kinds) > 1 THEN
    PERFORM cfstore._error('ColumnOrSuperColumn must have one (and only one) of column, super_column, counter and counter_super_column');
  END IF;

  IF kinds = '{column}' THEN
    item := m -> 'column';
    PERFORM cfstore._batch_members(item, '{name,value,timestamp,ttl}', 'column');
    IF is_counter THEN
      PERFORM cfstore._error(format('invalid operation for commutative columnfamily %s', cf));
    END IF;
    ttl := cfstore._batch_int(item -> 'ttl', 'ttl');
    IF ttl <= 0 THEN
      PERFORM cfstore._error('ttl must be positive');
    ELSIF ttl > 630720000 THEN
      PERFORM cfstore._error(format('ttl is too large. requested (%s) maximum (630720000)', ttl));
    END IF;
    IF is_super THEN
      PERFORM cfstore._error(format('supercolumn parameter is not optional for super CF %s', cf));
    END IF;
    name := cfstore._batch_text(item -> 'name', 'column name');
    PERFORM cfstore._batch_check_name(comparator, name);
    val := cfstore._batch_text(item -> 'value', 'column value');
    ts := cfstore._batch_int(item -> 'timestamp', 'timestamp');
    IF val IS NULL THEN
      PERFORM cfstore._error('Column value is required');
    ELSIF ts IS NULL THEN
      PERFORM cfstore._error('Column timestamp is required');
    END IF;
    PERFORM cfstore.insert(ks, cf, rowkey, name, val, writetime => ts, ttl => ttl::integer);

  ELSIF kinds = '{super_column}' OR kinds = '{counter_super_column}' THEN
    item := m -> kinds[1];
    PERFORM cfstore._batch_members(item, '{name,columns}', kinds[1]);
    IF NOT is_counter AND kinds[1] = 'counter_super_column' THEN
      PERFORM cfstore._error(format('invalid operation for non commutative columnfamily %s', cf));
    ELSIF is_counter AND kinds[1] = 'super_column' THEN
      PERFORM cfstore._error(format('invalid operation for commutative columnfamily %s', cf));
    END IF;
    IF jsonb_typeof(item -> 'columns') IS DISTINCT FROM 'array' THEN
      PERFORM cfstore._batch_shape_error(format('%s needs "columns", a JSON array', kinds[1]));
    END IF;
    sc := cfstore._batch_text(item -> 'name', 'super column name');
    -- each subcolumn is checked and written as a column path (sc, name)
    FOR c IN SELECT value FROM jsonb_array_elements(item -> 'columns') LOOP
      IF is_counter THEN
        PERFORM cfstore._batch_members(c, '{name,value}', 'a column of counter_super_column');
      ELSE
        PERFORM cfstore._batch_members(c, '{name,value,timestamp,ttl}', 'a column of super_column');
      END IF;
      IF NOT is_super THEN
        PERFORM cfstore._error(format('supercolumn parameter is invalid for standard CF %s', cf));
      END IF;
      IF sc IS NOT NULL THEN
        PERFORM cfstore._batch_check_name(comparator, sc, 'supercolumn');
      END IF;
      name := cfstore._batch_text(c -> 'name', 'column name');
      PERFORM cfstore._batch_check_name(subcomparator, name);
      IF is_counter THEN
        PERFORM cfstore.add(ks, cf, rowkey, name, cfstore._batch_int(c -> 'value', 'counter value'),
                            super_column => sc);
        CONTINUE;
      END IF;
      ttl := cfstore._batch_int(c -> 'ttl', 'ttl');
      IF ttl <= 0 THEN
        PERFORM cfstore._error('ttl must be positive');
      ELSIF ttl > 630720000 THEN
        PERFORM cfstore._error(format('ttl is too large. requested (%s) maximum (630720000)', ttl));
      END IF;
      val := cfstore._batch_text(c -> 'value', 'column value');
      ts := cfstore._batch_int(c -> 'timestamp', 'timestamp');
      IF val IS NULL THEN
        PERFORM cfstore._error('Column value is required');
      ELSIF ts IS NULL THEN
        PERFORM cfstore._error('Column timestamp is required');
      END IF;
      PERFORM cfstore.insert(ks, cf, rowkey, name, val, writetime => ts, ttl => ttl::integer,
                             super_column => sc);
    END LOOP;

  ELSIF kinds = '{counter_column}' THEN
    item := m -> 'counter_column';
    PERFORM cfstore._batch_members(item, '{name,value}', 'counter_column');
    IF NOT is_counter THEN
      PERFORM cfstore._error(format('invalid operation for non commutative columnfamily %s', cf));
    END IF;
    IF is_super THEN
      PERFORM cfstore._error(format('supercolumn parameter is not optional for super CF %s', cf));
    END IF;
    name := cfstore._batch_text(item -> 'name', 'column name');
    PERFORM cfstore._batch_check_name(comparator, name);
    PERFORM cfstore.add(ks, cf, rowkey, name, cfstore._batch_int(item -> 'value', 'counter value'));

  ELSE
    -- a deletion (ThriftValidation.validateDeletion, then deleteColumnOrSuperColumn)
    item := m -> 'deletion';
    PERFORM cfstore._batch_members(item, '{timestamp,super_column,predicate}', 'deletion');
    sc := cfstore._batch_text(item -> 'super_column', 'super_column');
    IF sc IS NOT NULL THEN
      PERFORM cfstore._batch_check_name(comparator, sc);     -- checked as a column name
    END IF;
    pred := item -> 'predicate';
    IF pred IS NOT NULL AND jsonb_typeof(pred) <> 'null' THEN
      PERFORM cfstore._batch_members(pred, '{column_names,slice_range}', 'predicate');
      names := nullif(pred -> 'column_names', 'null');
      rng := nullif(pred -> 'slice_range', 'null');
      IF names IS NULL AND rng IS NULL THEN
        PERFORM cfstore._error('A SlicePredicate must be given a list of Columns, a SliceRange, or both');
      END IF;
      IF rng IS NOT NULL THEN
        PERFORM cfstore._batch_members(rng, '{start,finish,reversed,count}', 'slice_range');
        start := coalesce(cfstore._batch_text(rng -> 'start', 'slice_range start'), '');
        finish := coalesce(cfstore._batch_text(rng -> 'finish', 'slice_range finish'), '');
        IF jsonb_typeof(rng -> 'reversed') NOT IN ('boolean', 'null') THEN
          PERFORM cfstore._batch_shape_error('slice_range reversed must be a JSON boolean');
        END IF;
        reversed := coalesce((rng ->> 'reversed')::boolean, false);
        cnt := coalesce(cfstore._batch_int(rng -> 'count', 'slice_range count'), 100);
        IF cnt NOT BETWEEN -2147483648 AND 2147483647 THEN
          PERFORM cfstore._batch_shape_error(format('slice_range count must be a 32-bit integer (got %s)', cnt));
        END IF;
        -- validateRange: bounds under the comparator that applies, count, order
        -- (get_slice with count 0 checks exactly these and reads nothing)
        PERFORM FROM cfstore.get_slice(ks, cf, rowkey, start, finish, reversed, cnt::integer,
                                       super_column => CASE WHEN is_super THEN sc END);
      END IF;
      IF names IS NOT NULL THEN
        IF jsonb_typeof(names) <> 'array' THEN
          PERFORM cfstore._batch_shape_error('predicate column_names must be a JSON array');
        END IF;
        IF sc IS NOT NULL AND NOT is_super THEN
          PERFORM cfstore._error(format('supercolumn specified to ColumnFamily %s containing normal columns', cf));
        END IF;
        FOR c IN SELECT value FROM jsonb_array_elements(names) LOOP
          PERFORM cfstore._batch_check_name(CASE WHEN sc IS NULL THEN comparator ELSE subcomparator END,
                                            cfstore._batch_text(c, 'a name of column_names'));
        END LOOP;
      END IF;
    END IF;
    ts := cfstore._batch_int(item -> 'timestamp', 'deletion timestamp');
    IF NOT is_super AND sc IS NOT NULL THEN
      msg := concat_ws(', ',
        'timestamp:' || ts,
        'super_column:' || cfstore._thrift_bytes(cfstore._arg_bytes(comparator, sc)),
        CASE WHEN rng IS NOT NULL THEN
          format('predicate:SlicePredicate(slice_range:SliceRange(start:%s, finish:%s, reversed:%s, count:%s))',
                 cfstore._thrift_bytes(cfstore._arg_bytes(comparator, start)),
                 cfstore._thrift_bytes(cfstore._arg_bytes(comparator, finish)), reversed::text, cnt)
        END);
      PERFORM cfstore._error(format(
        'Deletion of super columns is not possible on a standard ColumnFamily (KeySpace=%s ColumnFamily=%s Deletion=Deletion(%s))',
        ks, cf, msg));
    END IF;
    IF NOT is_counter AND ts IS NULL THEN
      PERFORM cfstore._error(format('Deletion timestamp is not optional for non commutative column family %s', cf));
    END IF;

    IF names IS NOT NULL THEN
      FOR name IN SELECT v FROM jsonb_array_elements_text(names) v LOOP
        IF is_super AND sc IS NULL THEN          -- the names are super columns
          IF is_counter THEN
            PERFORM cfstore.remove_counter(ks, cf, rowkey, super_column => name);
          ELSE
            PERFORM cfstore.remove(ks, cf, rowkey, super_column => name, writetime => ts);
          END IF;
        ELSIF is_counter THEN
          PERFORM cfstore.remove_counter(ks, cf, rowkey, name, super_column => sc);
        ELSE
          PERFORM cfstore.remove(ks, cf, rowkey, name, super_column => sc, writetime => ts);
        END IF;
      END LOOP;
    ELSIF rng IS NOT NULL THEN
      RETURN jsonb_build_object('cf', cf, 'key', rowkey, 'super_column', sc, 'start', start,
                                'finish', finish, 'reversed', reversed, 'timestamp', ts,
                                'whole_super', is_super AND sc IS NULL, 'counter', is_counter);
    ELSIF is_counter THEN
      PERFORM cfstore.remove_counter(ks, cf, rowkey, super_column => sc);
    ELSE
      PERFORM cfstore.remove(ks, cf, rowkey, super_column => sc, writetime => ts);
    END IF;
  END IF;
  RETURN NULL;
END $$;

-- Carry out a slice-range deletion that _batch_mutation returned: in a
-- standard column family one range tombstone; else a tombstone for each
-- live column, or super column, in the range.
CREATE FUNCTION cfstore._batch_delete_range(ks text, d jsonb) RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cf text := d ->> 'cf';
  rowkey text := d ->> 'key';
  sc text := d ->> 'super_column';
  ts bigint := (d ->> 'timestamp')::bigint;
  name text;
BEGIN
  IF (d ->> 'whole_super')::boolean THEN
    FOR name IN SELECT DISTINCT s.super_column
                  FROM cfstore.get_slice(ks, cf, rowkey, d ->> 'start', d ->> 'finish',
                                         (d ->> 'reversed')::boolean, 2147483647) s LOOP
      IF (d ->> 'counter')::boolean THEN
        PERFORM cfstore.remove_counter(ks, cf, rowkey, super_column => name);
      ELSE
        PERFORM cfstore.remove(ks, cf, rowkey, super_column => name, writetime => ts);
      END IF;
    END LOOP;
  ELSIF sc IS NULL AND NOT (d ->> 'counter')::boolean THEN
    -- a standard column family: one range tombstone, as Cassandra 2.0 writes
    PERFORM cfstore._remove_range(ks, cf, rowkey,
                                  nullif(CASE WHEN (d ->> 'reversed')::boolean THEN d ->> 'finish' ELSE d ->> 'start' END, ''),
                                  nullif(CASE WHEN (d ->> 'reversed')::boolean THEN d ->> 'start' ELSE d ->> 'finish' END, ''),
                                  ts);
  ELSE
    FOR name IN SELECT s.column_name
                  FROM cfstore.get_slice(ks, cf, rowkey, d ->> 'start', d ->> 'finish',
                                         (d ->> 'reversed')::boolean, 2147483647, super_column => sc) s LOOP
      IF (d ->> 'counter')::boolean THEN
        PERFORM cfstore.remove_counter(ks, cf, rowkey, name, super_column => sc);
      ELSE
        PERFORM cfstore.remove(ks, cf, rowkey, name, super_column => sc, writetime => ts);
      END IF;
    END LOOP;
  END IF;
END $$;

CREATE FUNCTION cfstore.batch_mutate(keyspace text, mutations jsonb)
RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ks text := batch_mutate.keyspace;
  key text;
  by_cf jsonb;
  cf text;
  list jsonb;
  m jsonb;
  info record;
  keylen integer;
  d jsonb;
  deferred jsonb[] := '{}';
BEGIN
  IF ks IS NULL THEN
    PERFORM cfstore._error('Keyspace null does not exist', '3F000');
  END IF;
  PERFORM cfstore._check_keyspace_exists(ks);
  IF jsonb_typeof(mutations) IS DISTINCT FROM 'object' THEN
    PERFORM cfstore._batch_shape_error('mutation_map must be a JSON object of row keys');
  END IF;
  FOR key, by_cf IN SELECT * FROM jsonb_each(mutations) LOOP
    IF jsonb_typeof(by_cf) <> 'object' THEN
      PERFORM cfstore._batch_shape_error(format(
        'the mutations of key "%s" must be a JSON object of column families', key));
    END IF;
    FOR cf, list IN SELECT * FROM jsonb_each(by_cf) LOOP
      -- the column family, then the key (CassandraServer.createMutationList)
      IF cf = '' THEN
        PERFORM cfstore._error('non-empty columnfamily is required');
      END IF;
      SELECT * INTO info FROM cfstore._column_family_info(ks, cf);
      keylen := length(cfstore._arg_bytes(info.key_validation_class, key));
      IF keylen = 0 THEN
        PERFORM cfstore._error('Key may not be empty');
      ELSIF keylen > 65535 THEN
        PERFORM cfstore._error(format('Key length of %s is longer than maximum of 65535', keylen));
      END IF;
      IF jsonb_typeof(list) <> 'array' THEN
        PERFORM cfstore._batch_shape_error(format(
          'the mutations of key "%s" in column family %s must be a JSON array', key, cf));
      END IF;
      FOR m IN SELECT value FROM jsonb_array_elements(list) LOOP
        d := cfstore._batch_mutation(ks, cf, key, m, info.column_type, info.comparator,
                                     info.subcomparator, info.is_counter);
        IF d IS NOT NULL THEN
          deferred := deferred || d;
        END IF;
      END LOOP;
    END LOOP;
  END LOOP;
  -- slice-range deletions last: they delete what the range holds once the
  -- rest of the batch is written
  FOREACH d IN ARRAY deferred LOOP
    PERFORM cfstore._batch_delete_range(ks, d);
  END LOOP;
END $$;
COMMENT ON FUNCTION cfstore.batch_mutate(text, jsonb) IS
  'Apply a Thrift mutation_map (JSON: {key: {column_family: [mutation, ...]}}) all or nothing';
