-- Sender IDs (docs/sender-ids.md): what a customer asked to send SMS as, per country (countryCode null: every
-- country), and how an admin decided. One row per customer, id and country: NULLS NOT DISTINCT makes the "every
-- country" row unique too (a plain unique index lets any number of NULLs through).
CREATE TABLE "sender_ids" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "senderId" VARCHAR(17) NOT NULL,
    "countryCode" CHAR(2),
    "kind" VARCHAR(16) NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "note" VARCHAR(500),
    "reason" VARCHAR(500),
    "reviewerId" INTEGER,
    "reviewedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sender_ids_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "sender_ids_status_check" CHECK ("status" IN (1, 2, 3, 4)),
    CONSTRAINT "sender_ids_kind_check" CHECK ("kind" IN ('alphanumeric', 'international', 'short_code'))
);

CREATE UNIQUE INDEX "sender_ids_userId_senderId_countryCode_key" ON "sender_ids"("userId", "senderId", "countryCode") NULLS NOT DISTINCT;

CREATE INDEX "sender_ids_tenantId_status_createdAt_idx" ON "sender_ids"("tenantId", "status", "createdAt");

ALTER TABLE "sender_ids" ADD CONSTRAINT "sender_ids_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
