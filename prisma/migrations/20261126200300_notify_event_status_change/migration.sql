-- batch_status callbacks (issue 18): a status change is told as it happened (old and new status, its time), not as
-- the batch is when the callback is sent, so the event row keeps them for a resend by hand. Status codes and a
-- time only, like the job that carries them.
ALTER TABLE "notify_events" ADD COLUMN "fromStatus" SMALLINT;

ALTER TABLE "notify_events" ADD COLUMN "toStatus" SMALLINT;

ALTER TABLE "notify_events" ADD COLUMN "changedAt" TIMESTAMPTZ(3);
