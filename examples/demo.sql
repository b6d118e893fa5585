CREATE EXTENSION cfstore;
SELECT cfstore.to_string('TimeUUIDType', cfstore.to_bytes('TimeUUIDType', 'now')) IS NOT NULL AS ok;
