-- A batch keeps the bounds of its recipients' ids (taken from the id sequence before and after they are written):
-- listing a recent batch's recipients by id otherwise walks the primary key from id 1 (about 750 ms a page with
-- 10 million recipients, docs/benchmarks.md). Older batches keep null and are read as before.
ALTER TABLE "message_batches" ADD COLUMN "recipientIdFrom" BIGINT, ADD COLUMN "recipientIdTo" BIGINT;
