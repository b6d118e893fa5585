-- cfstore demo: the two seed applications, and seed 003's CQL3 tables.  The blog of "WTF is a
-- SuperColumn" (BloggyAppy) prints its front page; Twissandra signs up four
-- users who follow each other and tweet, and prints a timeline a page at a
-- time.  Run by `scripts/dev.sh demo` in a fresh database, from the project
-- folder.  examples/README.md explains both data models.
\set ON_ERROR_STOP on
\set QUIET on
CREATE EXTENSION cfstore;

\echo
\echo '######## The blog (BloggyAppy), loaded from the article''s storage-conf.xml'
\ir blog/schema.sql
\o /dev/null
\ir blog/functions.sql
\ir blog/data.sql
\o
\echo
\ir blog/front_page.sql

\echo
\echo '######## Twissandra'
\o /dev/null
\ir twissandra/schema.sql
\ir twissandra/functions.sql
\o
SELECT cf->>'name' AS column_family,
       replace(cf->>'key_validation_class', 'org.apache.cassandra.db.marshal.', '') AS row_key,
       replace(cf->>'comparator_type', 'org.apache.cassandra.db.marshal.', '') AS column_names,
       replace(cf->>'default_validation_class', 'org.apache.cassandra.db.marshal.', '') AS "values"
FROM jsonb_array_elements(cfstore.describe_keyspace('Twissandra')->'cf_defs') AS cf;
\ir twissandra/demo.sql

\echo
\echo '######## CQL3: seed 003''s tweets and timeline tables'
\ir cql3/timeline.sql

\echo
\echo '######## CQL3 and the cli: seed 002''s buildingControl'
\ir cql3/building_control.sql

\echo
\echo '######## Nested objects: seed 002''s order, a cell per leaf'
\ir objects/orders.sql
