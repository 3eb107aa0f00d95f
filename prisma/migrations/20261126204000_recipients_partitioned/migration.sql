-- The recipients table partitioned by RANGE on id (issue 16: decision, numbers and procedure in docs/operations.md,
-- "The recipients table"). A batch's recipients are contiguous ids, so a batch lives in one partition (two at a
-- boundary), a lookup by id prunes to one, a new batch writes to the newest only, and an old partition detaches
-- for retention. Partitions are RECIPIENT_PARTITION_IDS = 50,000,000 ids wide: at today's sizes the live rows sit in
-- one partition and the receipt and outcome statements cost what they cost on the plain table (the benchmark's
-- 7-18x slowdowns were 10-50 partitions over 10M rows).
--
-- How: the existing table becomes the first partition, recipients_p0, covering every id below the next multiple of
-- the width past both its largest id and the sequence (a CHECK proves that bound first, so ATTACH scans nothing
-- more), and the parent's primary key and indexes adopt the partition's equal ones instead of building new ones.
-- Later partitions are recipients_p<k> for ids [k * width, (k + 1) * width), created ahead of the sequence by
-- ensure_recipient_partitions() (the workers' scheduler calls it on its tick). No DEFAULT partition: see the docs.
--
-- plpgsql bodies are escape strings with \073 for each semicolon: the migration runner (prisma/src/migrate.ts)
-- splits a script at every semicolon, even inside a dollar-quoted body.

ALTER TABLE "recipients" RENAME TO "recipients_p0";
ALTER INDEX "recipients_pkey" RENAME TO "recipients_p0_pkey";
ALTER INDEX "recipients_batchId_sendResult_idx" RENAME TO "recipients_p0_batchId_sendResult_idx";
ALTER INDEX "recipients_providerMessageId_idx" RENAME TO "recipients_p0_providerMessageId_idx";
ALTER INDEX "recipients_channelId_sentAt_idx" RENAME TO "recipients_p0_channelId_sentAt_idx";
ALTER INDEX "recipients_phone_batchId_id_idx" RENAME TO "recipients_p0_phone_batchId_id_idx";

-- The same columns, in the same order, with the same defaults (the id's nextval included).
CREATE TABLE "recipients" (LIKE "recipients_p0" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");
ALTER SEQUENCE "recipients_id_seq" OWNED BY "recipients"."id";

CREATE FUNCTION recipient_partition_width() RETURNS bigint LANGUAGE sql IMMUTABLE AS 'SELECT 50000000::bigint';

DO E'
DECLARE
  width bigint := recipient_partition_width()\073
  top bigint\073
  bound bigint\073
BEGIN
  SELECT greatest(coalesce((SELECT max(id) FROM recipients_p0), 0), (SELECT last_value FROM recipients_id_seq))
    INTO top\073
  bound := (top / width + 1) * width\073
  EXECUTE format(''ALTER TABLE recipients_p0 ADD CONSTRAINT recipients_p0_bound CHECK (id < %s)'', bound)\073
  EXECUTE format(''ALTER TABLE recipients ATTACH PARTITION recipients_p0 FOR VALUES FROM (MINVALUE) TO (%s)'', bound)\073
  ALTER TABLE recipients_p0 DROP CONSTRAINT recipients_p0_bound\073
END';

ALTER TABLE "recipients" ADD CONSTRAINT "recipients_pkey" PRIMARY KEY ("id");
CREATE INDEX "recipients_batchId_sendResult_idx" ON "recipients"("batchId", "sendResult");
CREATE INDEX "recipients_providerMessageId_idx" ON "recipients"("providerMessageId");
CREATE INDEX "recipients_channelId_sentAt_idx" ON "recipients"("channelId", "sentAt");
CREATE INDEX "recipients_phone_batchId_id_idx" ON "recipients"("phone", "batchId", "id");

-- Keeps the partition that holds the sequence's next ids and the two after it in place (100M ids ahead), and
-- answers how many partitions it created. Cheap when nothing is missing (three catalogue lookups), and creating one
-- locks the parent for a moment, which is why it runs ahead of need rather than at the first insert past the end.
-- A partition number the first partition already covers is skipped (recipients_p0 may span several widths).
CREATE FUNCTION ensure_recipient_partitions() RETURNS integer LANGUAGE plpgsql AS E'
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
    EXECUTE format(''CREATE TABLE recipients_p%s PARTITION OF recipients FOR VALUES FROM (%s) TO (%s)'',
                   k, k * width, (k + 1) * width)\073
    created := created + 1\073
  END LOOP\073
  RETURN created\073
END';

SELECT ensure_recipient_partitions();
