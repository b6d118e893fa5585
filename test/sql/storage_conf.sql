-- load_storage_conf: Cassandra 0.6 storage-conf.xml.
\set VERBOSITY terse

-- The blog schema of the seed article: a bare <Keyspace> element.
SELECT * FROM cfstore.load_storage_conf($xml$
<Keyspace Name="BloggyAppy">
    <!-- other keyspace config stuff -->
    <!-- CF to store authors -->
    <ColumnFamily CompareWith="BytesType" Name="Authors"/>
    <!-- CF to store blog entries. Row key is the slug -->
    <ColumnFamily CompareWith="BytesType" Name="BlogEntries"/>
    <!-- CF to store tags and the blog posts that have those tags -->
    <ColumnFamily CompareWith="TimeUUIDType" Name="TaggedPosts"/>
    <!-- CF to store comments -->
    <ColumnFamily CompareWith="TimeUUIDType" ColumnType="Super"
        CompareSubcolumnsWith="BytesType" Name="Comments"/>
</Keyspace>
$xml$);
SELECT jsonb_pretty(cfstore.describe_keyspace('BloggyAppy'));

-- A whole 0.6 <Storage> document: strategies, replication, GCGraceSeconds,
-- cache attributes, a Comment element and fully qualified comparators.
SELECT * FROM cfstore.load_storage_conf($xml$<?xml version="1.0"?>
<Storage>
  <ClusterName>Test Cluster</ClusterName>
  <Keyspaces>
    <Keyspace Name="Keyspace1">
      <ColumnFamily Name="Standard1" CompareWith="BytesType" KeysCached="1000" RowsCached="100"
                    RowCacheSavePeriodInSeconds="0" KeyCacheSavePeriodInSeconds="3600"/>
      <ColumnFamily Name="Standard2" CompareWith="UTF8Type" KeysCached="100%"/>
      <ColumnFamily Name="StandardByUUID1" CompareWith="org.apache.cassandra.db.marshal.TimeUUIDType"/>
      <ColumnFamily Name="Super1" ColumnType="Super" CompareWith="BytesType" CompareSubcolumnsWith="BytesType"/>
      <ColumnFamily Name="Super2" ColumnType="Super" CompareWith="UTF8Type" CompareSubcolumnsWith="UTF8Type"
                    RowsCached="10000" KeysCached="50%" Comment="A column family with supercolumns &amp; more"/>
      <ColumnFamily Name="Long1" CompareWith="LongType"><Comment>longs</Comment></ColumnFamily>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackUnawareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>1</ReplicationFactor>
      <EndPointSnitch>org.apache.cassandra.locator.EndPointSnitch</EndPointSnitch>
    </Keyspace>
    <Keyspace Name="Keyspace2">
      <ColumnFamily Name="Standard1" CompareWith="AsciiType"/>
      <ReplicaPlacementStrategy>org.apache.cassandra.locator.RackAwareStrategy</ReplicaPlacementStrategy>
      <ReplicationFactor>3</ReplicationFactor>
    </Keyspace>
  </Keyspaces>
  <Partitioner>org.apache.cassandra.dht.RandomPartitioner</Partitioner>
  <GCGraceSeconds>3600</GCGraceSeconds>
</Storage>
$xml$);
SELECT k.name, k.strategy_class, k.strategy_options, cf.name AS cf, cf.comparator, cf.subcomparator,
       cf.gc_grace_seconds, cf.comment
FROM cfstore.keyspace k JOIN cfstore.column_family cf ON cf.keyspace = k.name
WHERE k.name LIKE 'Keyspace_' ORDER BY 1, 4;

-- A <Keyspaces> element; an unknown attribute is reported and ignored.
SELECT * FROM cfstore.load_storage_conf(
  '<Keyspaces><Keyspace Name="K3"><ColumnFamily Name="C" CompareWidth="LongType"/></Keyspace></Keyspaces>');
SELECT comparator FROM cfstore.column_family WHERE keyspace = 'K3';

-- Errors, with 0.6's texts.  A file with an error creates nothing.
SELECT * FROM cfstore.load_storage_conf('<Keyspaces><Keyspace Name="E1"><ColumnFamily Name="A"/><ColumnFamily Name="B" ColumnType="Wide"/></Keyspace></Keyspaces>');
SELECT count(*) AS e1_created FROM cfstore.keyspace WHERE name = 'E1';
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" ColumnSort="Time"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" CompareSubcolumnsWith="UTF8Type"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" CompareWith="FooType"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" ColumnType="Super" CompareSubcolumnsWith="com.example.Foo"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A-B"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily CompareWith="UTF8Type"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" KeysCached="lots"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ColumnFamily Name="A" RowCacheSavePeriodInSeconds="soon"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace><ColumnFamily Name="A"/></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="System"/>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ReplicaPlacementStrategy>org.example.Foo</ReplicaPlacementStrategy></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2"><ReplicationFactor>three</ReplicationFactor></Keyspace>');
SELECT * FROM cfstore.load_storage_conf('<Storage><GCGraceSeconds>-1</GCGraceSeconds></Storage>');
SELECT * FROM cfstore.load_storage_conf('<Storage><GCGraceSeconds>4294967295</GCGraceSeconds></Storage>');
SELECT * FROM cfstore.load_storage_conf('<Config/>');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="E2">');
SELECT * FROM cfstore.load_storage_conf('<Keyspace Name="BloggyAppy"/>');
SELECT count(*) AS e2_created FROM cfstore.keyspace WHERE name = 'E2';

SELECT cfstore.drop_keyspace(name) FROM cfstore.keyspace ORDER BY name;
