-- Room on each page for a row's next version (fillfactor 70: inserts fill a page to 70 %), so that the updates
-- that change no indexed column are HOT (heap-only: no new entry in any index, the old version pruned in place).
-- A recipient's receipt (receiveResult, receivedAt, errorCode) and a batch's counters (deliveredCount, ...) are
-- such updates. With full pages PostgreSQL wrote their new versions on another page and added an entry to every
-- index for each: 5 on recipients, 6 on message_batches. Receipts come seconds after their messages on a real
-- SMSC, so each is an update of its own: measured, PostgreSQL's CPU per message of a 100k dispatch with receipts
-- 1 s late 63-71 -> 53-57 us, and per single send ~5-9 % less (docs/benchmarks.md, 2026-11-28).
-- The price: tables ~1.4x larger at insert time. The outcome update changes indexed columns (providerMessageId,
-- sentAt, a batch's status) and stays non-HOT, but its new version too stays on the page when it fits.
ALTER TABLE "message_batches" SET (fillfactor = 70);

-- A partitioned table holds no storage parameters: each partition gets its own, and the function that creates
-- the partitions ahead of the id sequence gives the new ones the same.
DO E'
DECLARE
  p text\073
BEGIN
  FOR p IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = ''recipients''::regclass LOOP
    EXECUTE format(''ALTER TABLE %I SET (fillfactor = 70)'', p)\073
  END LOOP\073
END';

CREATE OR REPLACE FUNCTION ensure_recipient_partitions() RETURNS integer LANGUAGE plpgsql AS E'
DECLARE
  width bigint := recipient_partition_width()\073
  k bigint\073
  first_k bigint\073
  p0_upper bigint\073
  created integer := 0\073
BEGIN
  SELECT (regexp_match(pg_get_expr(c.relpartbound, c.oid), ''TO \\(''''?(\\d+)''''?\\)''))[1]::bigint
    INTO p0_upper FROM pg_class c WHERE c.relname = ''recipients_p0'' AND c.relispartition\073
  first_k := (SELECT last_value FROM recipients_id_seq) / width\073
  FOR k IN first_k .. first_k + 2 LOOP
    CONTINUE WHEN p0_upper IS NOT NULL AND (k + 1) * width <= p0_upper\073
    CONTINUE WHEN to_regclass(format(''recipients_p%s'', k)) IS NOT NULL\073
    EXECUTE format(''CREATE TABLE recipients_p%s PARTITION OF recipients FOR VALUES FROM (%s) TO (%s) WITH (fillfactor = 70)'',
                   k, k * width, (k + 1) * width)\073
    created := created + 1\073
  END LOOP\073
  RETURN created\073
END';
