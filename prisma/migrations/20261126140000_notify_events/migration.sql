-- Callback events (issue 18): what re-sending a callback by hand needs, one row per event posted to a notify URL
-- (written by the workers with its first attempt). The job's ids only (batch, recipients of a delivery report,
-- inbound message), never numbers or text: the body is built from the database when sent, as always. eventId is
-- the one every attempt of the event carries (a receiver drops repeats by it), a resend by hand included.
CREATE TABLE "notify_events" (
    "id" BIGSERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "eventId" VARCHAR(200) NOT NULL,
    "event" VARCHAR(32) NOT NULL,
    "batchId" BIGINT,
    "recipientIds" BIGINT[] NOT NULL DEFAULT ARRAY[]::BIGINT[],
    "inboundId" BIGINT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notify_events_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "notify_events_eventId_key" ON "notify_events"("eventId");

CREATE INDEX "notify_events_userId_idx" ON "notify_events"("userId");

-- Each attempt names its event (null: the notify URL's test, and attempts from before this migration), and
-- whether it was a resend by hand.
ALTER TABLE "notify_attempts" ADD COLUMN "notifyEventId" BIGINT;

ALTER TABLE "notify_attempts" ADD COLUMN "manual" BOOLEAN NOT NULL DEFAULT false;

CREATE INDEX "notify_attempts_notifyEventId_idx" ON "notify_attempts"("notifyEventId");

CREATE INDEX "notify_attempts_userId_event_createdAt_idx" ON "notify_attempts"("userId", "event", "createdAt");

ALTER TABLE "notify_attempts" ADD CONSTRAINT "notify_attempts_notifyEventId_fkey" FOREIGN KEY ("notifyEventId") REFERENCES "notify_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;
