-- Message search (GET /batch/recipients/search): one number's recipients across batches, newest batch first. The
-- query walks this index backwards (phone = ?, ORDER BY "batchId" DESC, id DESC) and joins each row's batch by its
-- primary key, so it reads only the few rows of that number, never the table.
CREATE INDEX "recipients_phone_batchId_id_idx" ON "recipients"("phone", "batchId", "id");
