-- cfstore install script.  Assembled by `make` from src/sql/*.sql in order;
-- edit the parts, not the assembled cfstore--<version>.sql.

\echo Use "CREATE EXTENSION cfstore" to load this file. \quit

-- Everything lives in schema cfstore (see cfstore.control).
GRANT USAGE ON SCHEMA cfstore TO PUBLIC;
