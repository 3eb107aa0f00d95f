-- Opt-outs (docs/opt-outs.md): per customer, the numbers its batches never send to nor charge for, and a batch
-- counts them (optOutCount) like invalid and duplicate numbers. The STOP-style keywords of a tenant add a number
-- that replies with one of them.
CREATE TABLE "opt_outs" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "phone" VARCHAR(16) NOT NULL,
    "source" SMALLINT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "opt_outs_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "opt_outs_source_check" CHECK ("source" IN (1, 2, 3, 4))
);

CREATE UNIQUE INDEX "opt_outs_userId_phone_key" ON "opt_outs"("userId", "phone");

CREATE INDEX "opt_outs_tenantId_createdAt_idx" ON "opt_outs"("tenantId", "createdAt");

ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

ALTER TABLE "message_batches" ADD COLUMN "optOutCount" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "tenant_settings" ADD COLUMN "optOutKeywords" TEXT[] DEFAULT ARRAY['STOP', 'UNSUBSCRIBE', 'TD', '退订']::TEXT[];
