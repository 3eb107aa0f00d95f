-- A WhatsApp channel's message templates as last synced from its business account: customers pick an approved
-- one, and a batch's template parameters are checked against it before anything is charged.
CREATE TABLE "whatsapp_templates" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,
    "name" VARCHAR(512) NOT NULL,
    "language" VARCHAR(16) NOT NULL,
    "category" VARCHAR(20) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "components" JSONB NOT NULL,
    "bodyParams" SMALLINT NOT NULL,
    "headerKind" VARCHAR(10),
    "headerParam" BOOLEAN NOT NULL DEFAULT false,
    "buttonParams" JSONB NOT NULL,
    "syncedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "whatsapp_templates_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "whatsapp_templates_channelId_name_language_key" ON "whatsapp_templates"("channelId", "name", "language");
CREATE INDEX "whatsapp_templates_tenantId_idx" ON "whatsapp_templates"("tenantId");

ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
