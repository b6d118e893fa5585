-- cfstore.cli(): cassandra-cli 1.2 scripts, what they print and their
-- errors (Cassandra's texts), and that a failing script changes nothing.
-- Timestamps are the time of the write: they are masked.
\set VERBOSITY terse
CREATE FUNCTION cli(script text) RETURNS SETOF text LANGUAGE sql AS $$
  SELECT regexp_replace(l, 'timestamp=[0-9]+', 'timestamp=T', 'g') FROM cfstore.cli(script) l
$$;

-- the keyspace, a static column family with an index, writes and reads
SELECT cli($$
create keyspace Demo with placement_strategy = 'SimpleStrategy' and strategy_options = {replication_factor:1};
use Demo;
# the users
create column family Users with comparator = UTF8Type and key_validation_class = UTF8Type
  and default_validation_class = UTF8Type
  and column_metadata = [{column_name: age, validation_class: LongType, index_type: KEYS},
                         {column_name: email, validation_class: UTF8Type}]
  and comment = 'the users' and gc_grace = 3600;
set Users[jsmith][first] = 'John';
set Users[jsmith][last] = 'Smith';
set Users[jsmith][age] = 42;
set Users['jdoe'][age] = long(36) with ttl = 300;
set Users[jdoe][email] = 'jane@example.org';
-- reads
get Users[jsmith];
get Users[jsmith][age];
get Users[jsmith][nope];
get Users where age = 42;
get Users where age = 42 and first = 'John' limit 5;
list Users;
list Users limit 1 columns 1;
count Users[jsmith];
count Users[nobody];
del Users[jsmith][first];
get Users[jsmith];
del Users[jdoe];
list Users;
$$);
SELECT name, strategy_class, strategy_options FROM cfstore.keyspace;
SELECT comparator, key_validation_class, default_validation_class, column_metadata FROM cfstore._column_family_info('Demo', 'Users');
SELECT comment, gc_grace_seconds FROM cfstore.column_family WHERE name = 'Users';
-- the same cells through the functions
SELECT key, column_name, value FROM cfstore.get_slice('Demo', 'Users', 'jsmith');

-- BytesType keys, names and values are hex; assume changes how they read
SELECT cli($$
use demo;
create column family Raw;
set Raw[6b31][6331] = 'cafe';
get Raw[6b31];
list Raw[6b:6b32];
assume Raw keys as utf8;
assume Raw comparator as ascii;
list Raw[k:];
assume Raw validator as LongType;
set Raw[k2][c2] = 7;
get Raw[k2];
assume Raw names as utf8;
assume Raw keys as foo;
$$);

-- super column families, counters, truncate
SELECT cli($$
use Demo;
create column family Blog with column_type = Super and comparator = LongType and subcomparator = UTF8Type
  and key_validation_class = UTF8Type and default_validation_class = UTF8Type;
set Blog[arin][1][title] = 'Scream is the best movie ever';
set Blog[arin][1][body] = 'a movie';
set Blog[arin][2][title] = 'Jaws';
get Blog[arin];
get Blog[arin][1];
get Blog[arin][1][title];
count Blog[arin];
count Blog[arin][1];
set Blog[arin][3] = 'x';
del Blog[arin][2];
get Blog[arin];
create column family Hits with default_validation_class = CounterColumnType and comparator = UTF8Type
  and key_validation_class = UTF8Type;
incr Hits[home][views];
incr Hits[home][views] by 10;
decr Hits[home][views] by 2;
get Hits[home];
get Hits[home][views];
truncate Hits;
get Hits[home];
$$);

-- describe and show keyspaces (CQL3 tables are left out, as the cli leaves them out)
SELECT cli($$use Demo; describe;$$);
SELECT cli($$show keyspaces;$$);
SELECT cli($$describe Demo;$$);
SELECT cli($$describe nope;$$);
SELECT cli($$use Demo; describe nope;$$);
-- update keyspace: what it names changes, the rest stays; the name is matched as the cli matches it
SELECT cli($$create keyspace Upd with placement_strategy = 'SimpleStrategy' and strategy_options = {replication_factor:1};
update keyspace Upd with strategy_options = {replication_factor:3};
describe Upd;
update keyspace upd with placement_strategy = 'NetworkTopologyStrategy' and strategy_options = {datacenter1:2} and durable_writes = true;
describe Upd;
update keyspace Upd with placement_strategy = 'org.apache.cassandra.locator.SimpleStrategy';$$);
SELECT cfstore.describe_keyspace('Upd');
SELECT cli($$update keyspace Nope with strategy_options = {replication_factor:3};$$);
SELECT cli($$update keyspace Upd with placement_strategy = 'Foo';$$);
SELECT cli($$update keyspace Upd with strategy_options = {replication_factor:-1};$$);
SELECT cli($$update keyspace Upd with colour = 'red';$$);
SELECT cli($$update keyspace system with strategy_options = {replication_factor:2};$$);
-- a failed update changes nothing
SELECT strategy_class, strategy_options FROM cfstore.keyspace WHERE name = 'Upd';
SELECT cli($$drop keyspace Upd;$$);

-- seed 002: buildingControl made with the cli, then read as a CQL3 table and as SQL
SELECT cli($$
use Demo;
create column family buildingControl with key_validation_class = 'IntegerType'
  and comparator = 'CompositeType(UTF8Type, IntegerType, IntegerType, LongType, UTF8Type)'
  and default_validation_class='DoubleType';
set buildingControl[20130421]['Los Angeles:2658:295016:1361237156:temp'] = double('71.2');
set buildingControl[20130421]['Los Angeles:2658:295016:1361237156:humidity'] = '30.7';
list buildingControl;
$$);
SELECT cfstore.cql($$SELECT * FROM "buildingControl"$$, 'Demo');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME key TO day AND column1 TO city AND column2 TO buildingID
                     AND column3 TO sensorID AND column4 TO time$$, 'Demo');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD temp double$$, 'Demo');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD humidity double$$, 'Demo');
SELECT cfstore.cql($$SELECT * FROM "buildingControl" WHERE day = 20130421$$, 'Demo');
SELECT * FROM "Demo"."buildingControl";

-- update and drop
SELECT cli($$
use Demo;
update column family Users with default_validation_class = AsciiType and comment = 'people';
drop index on Users.age;
drop column family Raw;
$$);
SELECT cli($$use Demo; drop index on Users.email;$$);
SELECT cli($$use Demo; drop index on Users.nope;$$);
SELECT comment, default_validation_class FROM cfstore.column_family WHERE name = 'Users';
SELECT comparator, key_validation_class, default_validation_class, column_metadata FROM cfstore._column_family_info('Demo', 'Users');

-- errors: each raises the cli's message, and the whole script rolls back
SELECT cli($$set Users[a][b] = 'c';$$);
SELECT cli($$use Nope;$$);
SELECT cli($$use Demo; set Nope[a][b] = 'c';$$);
SELECT cli($$use Demo; set Users[a] = 'c';$$);
SELECT cli($$use Demo; set Blog[a][1] = 'c';$$);
SELECT cli($$use Demo; set Users[a][age] = 'x';$$);
SELECT cli($$use Demo; set Users[a][b] = long(x);$$);
SELECT cli($$use Demo; set Users[a][b] = float(1);$$);
SELECT cli($$use Demo; set Users[a][b] = long();$$);
SELECT cli($$use Demo; create column family Raw2; set Raw2[zz][a] = 'b';$$);
SELECT cli($$use Demo; get Users[jsmith] limit 0;$$);
SELECT cli($$use Demo; list Users limit 0;$$);
SELECT cli($$use Demo; incr Users[a][b];$$);
SELECT cli($$use Demo; create column family Bad with rows_cached = 10;$$);
SELECT cli($$use Demo; create column family Bad with column_metadata = {a: b};$$);
SELECT cli($$use Demo; create column family Bad with comparator = UTF8Type and column_metadata = [{column_name: a, size: 1}];$$);
SELECT cli($$use Demo; create column family Bad with read_repair_chance = 2;$$);
SELECT cli($$use Demo; create column family Bad with gc_grace = x;$$);
SELECT cli($$use Demo; create column family Users;$$);
SELECT cli($$create keyspace K2 with foo = 1;$$);
SELECT cli($$get Users;$$);
SELECT cli($$foo;$$);
SELECT cli($$use Demo; del Users;$$);
SELECT cli($$use Demo; set Users[a][b] = 'c' with ttl = 30 and x = 1;$$);
SELECT cli($$use Demo; set Users[a][b] = 1.5;$$);
SELECT cli($$use Demo; set Users[a][b] = "x";$$);
SELECT cli($$use Demo; set Users[a][b] = 'abc$$);
SELECT cli($$use Demo; assume Users keys utf8;$$);
SELECT cli($$use Demo; consistencylevel as QUORUM; consistencylevel as FOO;$$);
SELECT cli($$connect localhost/9160;$$);
-- hashes nested deeper than the stack allows: an error, not a crash
SELECT cli('create keyspace Deep with strategy_options = ' || repeat('{a:', 300000));
-- a UTF8Type value with a NUL byte, which text cannot hold, is an error to print, not cut short
SELECT cli($$use Demo; create column family Nul with comparator = UTF8Type and key_validation_class = UTF8Type and default_validation_class = UTF8Type; set Nul[k][c] = bytes('410042');$$);
SELECT cli($$use Demo; get Nul[k];$$);
SELECT cli($$use Demo; drop column family Nul;$$);
-- a column_metadata name its comparator cannot read
SELECT cli($$use Demo; create column family Bad with comparator = LongType and column_metadata = [{column_name: xyz, validation_class: UTF8Type}];$$);
-- nothing of a failed script is left
SELECT cli($$use Demo; set Users[rollback][first] = 'x'; set Users[rollback][age] = 'x';$$);
SELECT count(*) FROM cfstore.get_slice('Demo', 'Users', 'rollback');
SELECT count(*) FROM cfstore.column_family WHERE name = 'Raw2';
-- compression_options: Cassandra's map, kept as given, shown by describe
-- with the class fully qualified; an unknown class is Cassandra's error
SELECT cli($$
use Demo;
create column family Docs with comparator = UTF8Type and default_validation_class = UTF8Type
  and compression_options = {sstable_compression: SnappyCompressor, chunk_length_kb: 64};
set Docs[d1][body] = '{"text": "a document that is long enough to be compressed", "lang": "en"}';
get Docs[d1][body];
update column family Docs with compression_options = {sstable_compression: 'org.apache.cassandra.io.compress.DeflateCompressor'};
$$);
SELECT name, compression_options, compression FROM cfstore.column_family WHERE name = 'Docs';
SELECT l FROM cli($$describe Demo;$$) l
 WHERE l ~ 'ColumnFamily: Docs|Compression Options|sstable_compression|chunk_length_kb';
SELECT cli($$use Demo; create column family Bad with compression_options = {sstable_compression: Lz5Compressor};$$);
SELECT cli($$use Demo; update column family Docs with compression_options = {sstable_compression: SnappyCompressor, chunk_length_kb: 3};$$);
SELECT count(*) FROM cfstore.column_family WHERE name = 'Bad';

-- a script is one call: use does not carry over
SELECT cli($$use Demo;$$);
SELECT cli($$list Users;$$);
SELECT cli($$use Demo; drop keyspace Demo; list Users;$$);
SELECT cli($$drop keyspace Demo;$$);
SELECT count(*) FROM cfstore.keyspace;
DROP FUNCTION cli(text);
