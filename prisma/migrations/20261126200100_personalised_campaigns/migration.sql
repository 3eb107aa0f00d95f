-- Personalised campaigns (docs/batches.md): a recipient keeps the values of the file's columns its content uses
-- (NULL for batches that are not personalised: existing rows and the usual path pay nothing), and a batch counts
-- the rows refused for an empty used cell or a filled text too long (rejected_numbers reasons 6 and 7).
ALTER TABLE "recipients" ADD COLUMN "vars" JSONB;
ALTER TABLE "message_batches" ADD COLUMN "unfilledCount" INTEGER NOT NULL DEFAULT 0;
