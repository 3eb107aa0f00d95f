-- RCS and WhatsApp (issues 13, 14): read reports, SMS fallback per recipient with its price, provider webhook
-- events stored before they are acknowledged, and inbound messages.

-- AlterTable
ALTER TABLE "message_batches" ADD COLUMN     "fallbackCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "readCount" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "recipients" ADD COLUMN     "fallbackFrom" INTEGER,
ADD COLUMN     "fallbackPrice" BIGINT,
ADD COLUMN     "primaryPrice" BIGINT,
ADD COLUMN     "readAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "channel_events" (
    "id" BIGSERIAL NOT NULL,
    "channelId" INTEGER NOT NULL,
    "body" TEXT NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" SMALLINT NOT NULL DEFAULT 0,
    "notBefore" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbound_messages" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER,
    "batchId" BIGINT,
    "recipientId" BIGINT,
    "channelId" INTEGER NOT NULL,
    "providerMessageId" VARCHAR(128) NOT NULL,
    "phone" VARCHAR(16) NOT NULL,
    "text" VARCHAR(4096),
    "postbackData" VARCHAR(2048),
    "inReplyTo" VARCHAR(128),
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "channel_events_notBefore_id_idx" ON "channel_events"("notBefore", "id");

-- CreateIndex
CREATE INDEX "inbound_messages_userId_receivedAt_idx" ON "inbound_messages"("userId", "receivedAt");

-- CreateIndex
CREATE INDEX "inbound_messages_batchId_idx" ON "inbound_messages"("batchId");

-- CreateIndex
CREATE INDEX "inbound_messages_channelId_phone_receivedAt_idx" ON "inbound_messages"("channelId", "phone", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "inbound_messages_channelId_providerMessageId_key" ON "inbound_messages"("channelId", "providerMessageId");
