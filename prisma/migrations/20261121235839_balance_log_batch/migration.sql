-- AddForeignKey
ALTER TABLE "balance_logs" ADD CONSTRAINT "balance_logs_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "message_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
