-- "Storing nested objects in Cassandra with composite columns" (agiato):
-- an order object with a nested customer and a list of line items, stored
-- with put_object as composite columns (date, orderID, path) in the row of
-- its customer, then read back whole, as the cells the article's cli listing
-- shows, as the article's CQL3 table and as SQL, and found by example through
-- an index on a nested field.
\o /dev/null
SELECT cfstore.cql($$CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}$$);
-- the article's partial CQL3 definition, with the object's own field names
SELECT cfstore.cql($$CREATE TABLE orders ("custID" text, date text, "orderID" int,
                      amount double, status text, notes text,
                      PRIMARY KEY ("custID", date, "orderID"))$$, 'shop');
-- an index on a nested field: the column named by its path
SELECT cfstore.cql($$ALTER TABLE orders ADD "customer.email" text$$, 'shop');
SELECT cfstore.cql($$CREATE INDEX orders_by_email ON orders ("customer.email")$$, 'shop');

SELECT cfstore.put_object('shop', 'orders', $${
  "custID": "12736467", "date": "2013-06-10", "orderID": 19482065,
  "amount": 216.28, "status": "picked", "notes": "on time",
  "items": [{"sku": 87482734, "quantity": 4}, {"sku": 32851042, "quantity": 2}],
  "customer": {"name": "Joe Smith", "tel": "231 456 7890", "email": "joe@yahoo.com"}
}$$, '{custID,date,orderID}', writetime => 1370822400000000);
SELECT cfstore.put_object('shop', 'orders', $${
  "custID": "12736467", "date": "2013-06-12", "orderID": 19482210,
  "amount": 12.5, "status": "shipped",
  "items": [{"sku": 87482734, "quantity": 1}],
  "customer": {"name": "Joe Smith", "tel": "231 456 7890", "email": "joe@yahoo.com"}
}$$, '{custID,date,orderID}', writetime => 1370995200000000);
SELECT cfstore.put_object('shop', 'orders', $${
  "custID": "40211873", "date": "2013-06-11", "orderID": 19482101,
  "amount": 54.0, "status": "picked",
  "items": [{"sku": 32851042, "quantity": 6, "gift": {"wrap": true, "note": "Happy birthday"}}],
  "customer": {"name": "Ann Lee", "email": "ann@example.com"}
}$$, '{custID,date,orderID}', writetime => 1370908800000000);
\o

\echo '-- the cells of customer 12736467''s first order: the article''s cli listing'
SELECT column_name, value FROM cfstore.get_slice('shop', 'orders', '12736467'::text,
       '2013-06-10'::text, '2013-06-10:19482065:~'::text, false, 100);

\echo '-- the object, rebuilt'
SELECT jsonb_pretty(cfstore.get_object('shop', 'orders',
       '{"custID": "12736467", "date": "2013-06-10", "orderID": 19482065}')) AS "order";

\echo '-- the article''s CQL3 query sees the columns it knows'
SELECT r FROM cfstore.cql($$SELECT "custID", date, "orderID", amount, notes, status FROM orders
                            WHERE "custID" = '12736467'$$, 'shop') r;

\echo '-- a partial update: the status, and the items (now one)'
\o /dev/null
SELECT cfstore.put_object('shop', 'orders', $${"custID": "12736467", "date": "2013-06-10", "orderID": 19482065,
  "status": "shipped", "items": [{"sku": 87482734, "quantity": 4}]}$$, '{custID,date,orderID}',
  writetime => 1370908800000000);
\o
SELECT cfstore.get_object('shop', 'orders', '{"custID": "12736467", "date": "2013-06-10", "orderID": 19482065}')
       -> 'items' AS items;

\echo '-- query by example: every order of a customer, and by a nested field (through its index)'
SELECT o ->> 'orderID' AS "orderID", o ->> 'status' AS status
  FROM cfstore.find_objects('shop', 'orders', '{"custID": "12736467"}') o;
SELECT o ->> 'custID' AS "custID", o ->> 'orderID' AS "orderID"
  FROM cfstore.find_objects('shop', 'orders', '{"customer": {"email": "ann@example.com"}}') o;
