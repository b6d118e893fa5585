-- The demo's CQL3 part (examples/cql3/timeline.sql), run as demo.sql runs it:
-- seed 003's tweets and timeline tables, a timeline page through cql(), as
-- SQL and as the cells Cassandra 1.2 stores; seed 002's buildingControl made
-- with the cli, then read as a CQL3 table and as SQL.
\set ON_ERROR_STOP on
\set QUIET on
\set ECHO none
\i examples/cql3/timeline.sql
\i examples/cql3/building_control.sql
\o /dev/null
SELECT cfstore.drop_keyspace('twissandra3');
SELECT cfstore.drop_keyspace('hvac');
\o
