-- Seed 002 ("Storing nested objects in Cassandra with composite columns"):
-- the HVAC readings of buildingControl, a column family made with the
-- cli, with a composite comparator whose first four components are the
-- clustering key (city, buildingID, sensorID, time) and whose last names
-- the reading; then the same cells as the seed's CQL3 table and as SQL.
\o /dev/null
SELECT cfstore.cql($$CREATE KEYSPACE hvac WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);
\o
\echo
\echo '-- made and read with the cli (its output):'
SELECT line AS cli FROM cfstore.cli($$
use hvac;
create column family buildingControl with key_validation_class = 'IntegerType'
  and comparator = 'CompositeType(UTF8Type, IntegerType, IntegerType, LongType, UTF8Type)'
  and default_validation_class = 'DoubleType';
set buildingControl[20130421]['Los Angeles:2658:295016:1361237156:temp'] = double('71.2');
set buildingControl[20130421]['Los Angeles:2658:295016:1361237156:humidity'] = double('30.7');
set buildingControl[20130421]['Los Angeles:2658:295017:1361237156:temp'] = double('68.9');
set buildingControl[20130421]['Los Angeles:2658:295017:1361237156:humidity'] = double('33.1');
count buildingControl[20130421];
$$) line;

\echo '-- CQL3 sees a compact table: key, column1 .. column5, value'
SELECT r FROM cfstore.cql($$SELECT * FROM "buildingControl" LIMIT 2$$, 'hvac') r;

\echo '-- naming the key and the first four components makes it the seed''s table'
\o /dev/null
SELECT cfstore.cql($$ALTER TABLE "buildingControl" RENAME key TO day AND column1 TO city AND column2 TO buildingID
                     AND column3 TO sensorID AND column4 TO time$$, 'hvac');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD temp double$$, 'hvac');
SELECT cfstore.cql($$ALTER TABLE "buildingControl" ADD humidity double$$, 'hvac');
\o
SELECT r FROM cfstore.cql($$SELECT sensorid, temp, humidity FROM "buildingControl"
                            WHERE day = 20130421 AND city = 'Los Angeles' AND buildingid = 2658$$, 'hvac') r;

\echo '-- and as SQL: a row per reading of a sensor'
SELECT sensorid, to_char(to_timestamp(time) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS at, temp, humidity
  FROM hvac."buildingControl" WHERE day = 20130421 ORDER BY sensorid;
