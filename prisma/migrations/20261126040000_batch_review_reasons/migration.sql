-- Why a batch was held for review (the sensitive words its content contains, review mode 1, the threshold of mode
-- 2), judged at submission and kept with the batch: the review modal shows it to the reviewer. Batches submitted
-- before have none (null), as have batches that were not held.
ALTER TABLE "message_batches" ADD COLUMN "reviewReasons" JSONB;
