-- Partial indexes for the two recipients columns that are NULL when a row is written (issue 19): the provider's
-- message id and the send time are set only once the message is sent, so the ingest, which writes every row with
-- both NULL, adds no entry to these two indexes any more, and the indexes hold only sent messages. Every query
-- that uses them compares the column (providerMessageId = ..., sentAt > ...), which implies IS NOT NULL, so the
-- planner still picks them: the receipt, reply and status lookups, the channel statistics, the receipt listeners
-- and the fallback window (docs/data-model.md). Created on the partitioned parent, they cascade to every partition.
DROP INDEX "recipients_providerMessageId_idx";
CREATE INDEX "recipients_providerMessageId_idx" ON "recipients"("providerMessageId") WHERE "providerMessageId" IS NOT NULL;
DROP INDEX "recipients_channelId_sentAt_idx";
CREATE INDEX "recipients_channelId_sentAt_idx" ON "recipients"("channelId", "sentAt") WHERE "sentAt" IS NOT NULL;
