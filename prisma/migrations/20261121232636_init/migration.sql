-- CreateTable
CREATE TABLE "tenants" (
    "id" SERIAL NOT NULL,
    "code" VARCHAR(32) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'CNY',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tenant_settings" (
    "tenantId" INTEGER NOT NULL,
    "reviewMode" SMALLINT NOT NULL DEFAULT 1,
    "reviewThreshold" INTEGER NOT NULL DEFAULT 1000,
    "sensitiveWords" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "registrationOpen" BOOLEAN NOT NULL DEFAULT true,
    "international" BOOLEAN NOT NULL DEFAULT true,
    "domesticCountry" CHAR(2) NOT NULL DEFAULT 'CN',
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tenant_settings_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "website_configs" (
    "id" SERIAL NOT NULL,
    "host" VARCHAR(253) NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "agentId" INTEGER,
    "title" VARCHAR(100) NOT NULL,
    "logo" VARCHAR(500),
    "logoSmall" VARCHAR(500),
    "description" VARCHAR(500),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "website_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER,
    "type" SMALLINT NOT NULL,
    "username" VARCHAR(64) NOT NULL,
    "passwordHash" VARCHAR(200) NOT NULL,
    "agentId" INTEGER,
    "createdById" INTEGER,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "nickname" VARCHAR(100),
    "email" VARCHAR(254),
    "phone" VARCHAR(32),
    "company" VARCHAR(200),
    "remark" VARCHAR(500),
    "balance" BIGINT NOT NULL DEFAULT 0,
    "authStatus" SMALLINT NOT NULL DEFAULT 0,
    "authRequirement" SMALLINT NOT NULL DEFAULT 0,
    "authExemptUntil" TIMESTAMPTZ(3),
    "lang" VARCHAR(5) NOT NULL DEFAULT 'zh',
    "apiEnabled" BOOLEAN NOT NULL DEFAULT false,
    "secretKeyHash" VARCHAR(64),
    "secretKeyPrefix" VARCHAR(16),
    "secretKeyCreatedAt" TIMESTAMPTZ(3),
    "ipWhitelist" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "notifyUrl" VARCHAR(1000),
    "international" BOOLEAN NOT NULL DEFAULT true,
    "tokenVersion" INTEGER NOT NULL DEFAULT 0,
    "lastLoginAt" TIMESTAMPTZ(3),
    "lastLoginIp" VARCHAR(45),
    "deletedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_logs" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER,
    "userId" INTEGER,
    "username" VARCHAR(64) NOT NULL,
    "area" VARCHAR(16) NOT NULL,
    "ip" VARCHAR(45) NOT NULL,
    "userAgent" VARCHAR(500),
    "success" BOOLEAN NOT NULL,
    "reason" VARCHAR(32),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "balance_logs" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "type" SMALLINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "balanceAfter" BIGINT NOT NULL,
    "operatorId" INTEGER,
    "batchId" BIGINT,
    "remittanceId" INTEGER,
    "remark" VARCHAR(500),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "balance_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "remittances" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,
    "payer" VARCHAR(200) NOT NULL,
    "reference" VARCHAR(200),
    "proofPath" VARCHAR(500),
    "remark" VARCHAR(500),
    "status" SMALLINT NOT NULL DEFAULT 1,
    "reviewerId" INTEGER,
    "reason" VARCHAR(500),
    "reviewedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "remittances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "authentications" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "subjectType" SMALLINT NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "idNumber" VARCHAR(64) NOT NULL,
    "contactName" VARCHAR(100),
    "contactPhone" VARCHAR(32),
    "documents" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" SMALLINT NOT NULL DEFAULT 1,
    "reviewerId" INTEGER,
    "reason" VARCHAR(500),
    "reviewedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "authentications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "countries" (
    "code" CHAR(2) NOT NULL,
    "dialCode" VARCHAR(8) NOT NULL,
    "nameEn" VARCHAR(100) NOT NULL,
    "nameZh" VARCHAR(100) NOT NULL,

    CONSTRAINT "countries_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "products" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "code" SMALLINT NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "category" VARCHAR(100) NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "countryScope" SMALLINT NOT NULL DEFAULT 1,
    "countryCodes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "defaultChannelId" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "prices" (
    "id" SERIAL NOT NULL,
    "productId" INTEGER NOT NULL,
    "countryCode" CHAR(2) NOT NULL,
    "unitPrice" BIGINT NOT NULL,
    "updatedById" INTEGER,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_prices" (
    "id" SERIAL NOT NULL,
    "productId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "countryCode" CHAR(2) NOT NULL,
    "unitPrice" BIGINT NOT NULL,
    "updatedById" INTEGER,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "productCode" SMALLINT NOT NULL,
    "config" JSONB NOT NULL,
    "secrets" TEXT NOT NULL,
    "throughput" INTEGER NOT NULL DEFAULT 100,
    "countryScope" SMALLINT NOT NULL DEFAULT 1,
    "countryCodes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "status" SMALLINT NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_routes" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "countryCode" VARCHAR(2) NOT NULL DEFAULT '*',
    "channelId" INTEGER NOT NULL,
    "updatedById" INTEGER,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "channel_routes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_batches" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "agentId" INTEGER,
    "productId" INTEGER NOT NULL,
    "productCode" SMALLINT NOT NULL,
    "taskType" SMALLINT NOT NULL,
    "submitMode" SMALLINT NOT NULL,
    "source" SMALLINT NOT NULL DEFAULT 1,
    "status" SMALLINT NOT NULL,
    "content" JSONB NOT NULL,
    "senderId" VARCHAR(32),
    "segments" SMALLINT NOT NULL DEFAULT 1,
    "scheduledAt" TIMESTAMPTZ(3),
    "filePath" VARCHAR(500),
    "fileName" VARCHAR(255),
    "ingestedCount" INTEGER NOT NULL DEFAULT 0,
    "totalCount" INTEGER NOT NULL DEFAULT 0,
    "validCount" INTEGER NOT NULL DEFAULT 0,
    "invalidCount" INTEGER NOT NULL DEFAULT 0,
    "duplicateCount" INTEGER NOT NULL DEFAULT 0,
    "sentCount" INTEGER NOT NULL DEFAULT 0,
    "successCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "deliveredCount" INTEGER NOT NULL DEFAULT 0,
    "undeliveredCount" INTEGER NOT NULL DEFAULT 0,
    "cost" BIGINT NOT NULL DEFAULT 0,
    "refunded" BIGINT NOT NULL DEFAULT 0,
    "reviewerId" INTEGER,
    "reviewedAt" TIMESTAMPTZ(3),
    "reason" VARCHAR(500),
    "idempotencyKey" VARCHAR(100),
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "message_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recipients" (
    "id" BIGSERIAL NOT NULL,
    "batchId" BIGINT NOT NULL,
    "phone" VARCHAR(16) NOT NULL,
    "countryCode" CHAR(2) NOT NULL,
    "channelId" INTEGER,
    "segments" SMALLINT NOT NULL DEFAULT 1,
    "price" BIGINT NOT NULL,
    "sendResult" SMALLINT NOT NULL DEFAULT 0,
    "receiveResult" SMALLINT NOT NULL DEFAULT 0,
    "providerMessageId" VARCHAR(64),
    "errorCode" VARCHAR(32),
    "sentAt" TIMESTAMPTZ(3),
    "receivedAt" TIMESTAMPTZ(3),

    CONSTRAINT "recipients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rejected_numbers" (
    "id" BIGSERIAL NOT NULL,
    "batchId" BIGINT NOT NULL,
    "raw" VARCHAR(64) NOT NULL,
    "reason" SMALLINT NOT NULL,

    CONSTRAINT "rejected_numbers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notify_attempts" (
    "id" BIGSERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "batchId" BIGINT,
    "event" VARCHAR(32) NOT NULL,
    "attempt" SMALLINT NOT NULL,
    "httpStatus" SMALLINT,
    "error" VARCHAR(200),
    "durationMs" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notify_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_templates" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "scene" VARCHAR(32) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "content" VARCHAR(1000) NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sms_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sms_records" (
    "id" BIGSERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "templateId" INTEGER,
    "userId" INTEGER,
    "phone" VARCHAR(16) NOT NULL,
    "status" SMALLINT NOT NULL,
    "errorCode" VARCHAR(32),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sms_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notices" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "content" TEXT NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "publishedAt" TIMESTAMPTZ(3),
    "createdById" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenants_code_key" ON "tenants"("code");

-- CreateIndex
CREATE UNIQUE INDEX "website_configs_host_key" ON "website_configs"("host");

-- CreateIndex
CREATE INDEX "website_configs_tenantId_idx" ON "website_configs"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "users_secretKeyHash_key" ON "users"("secretKeyHash");

-- CreateIndex
CREATE INDEX "users_tenantId_type_status_idx" ON "users"("tenantId", "type", "status");

-- CreateIndex
CREATE INDEX "users_agentId_idx" ON "users"("agentId");

-- CreateIndex
CREATE INDEX "users_tenantId_createdAt_idx" ON "users"("tenantId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "users_tenantId_username_key" ON "users"("tenantId", "username");

-- CreateIndex
CREATE INDEX "login_logs_tenantId_createdAt_idx" ON "login_logs"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "login_logs_userId_createdAt_idx" ON "login_logs"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "balance_logs_tenantId_type_createdAt_idx" ON "balance_logs"("tenantId", "type", "createdAt");

-- CreateIndex
CREATE INDEX "balance_logs_userId_createdAt_idx" ON "balance_logs"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "balance_logs_batchId_idx" ON "balance_logs"("batchId");

-- CreateIndex
CREATE INDEX "remittances_tenantId_status_createdAt_idx" ON "remittances"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "remittances_userId_createdAt_idx" ON "remittances"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "authentications_tenantId_status_createdAt_idx" ON "authentications"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "authentications_userId_createdAt_idx" ON "authentications"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "products_tenantId_code_idx" ON "products"("tenantId", "code");

-- CreateIndex
CREATE UNIQUE INDEX "prices_productId_countryCode_key" ON "prices"("productId", "countryCode");

-- CreateIndex
CREATE INDEX "customer_prices_userId_idx" ON "customer_prices"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "customer_prices_productId_userId_countryCode_key" ON "customer_prices"("productId", "userId", "countryCode");

-- CreateIndex
CREATE INDEX "channels_tenantId_productCode_idx" ON "channels"("tenantId", "productCode");

-- CreateIndex
CREATE INDEX "channel_routes_channelId_idx" ON "channel_routes"("channelId");

-- CreateIndex
CREATE UNIQUE INDEX "channel_routes_userId_productId_countryCode_key" ON "channel_routes"("userId", "productId", "countryCode");

-- CreateIndex
CREATE INDEX "message_batches_tenantId_productCode_status_createdAt_idx" ON "message_batches"("tenantId", "productCode", "status", "createdAt");

-- CreateIndex
CREATE INDEX "message_batches_agentId_productCode_status_createdAt_idx" ON "message_batches"("agentId", "productCode", "status", "createdAt");

-- CreateIndex
CREATE INDEX "message_batches_userId_productCode_createdAt_idx" ON "message_batches"("userId", "productCode", "createdAt");

-- CreateIndex
CREATE INDEX "message_batches_status_scheduledAt_idx" ON "message_batches"("status", "scheduledAt");

-- CreateIndex
CREATE UNIQUE INDEX "message_batches_userId_idempotencyKey_key" ON "message_batches"("userId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "recipients_batchId_sendResult_idx" ON "recipients"("batchId", "sendResult");

-- CreateIndex
CREATE INDEX "recipients_providerMessageId_idx" ON "recipients"("providerMessageId");

-- CreateIndex
CREATE INDEX "recipients_channelId_sentAt_idx" ON "recipients"("channelId", "sentAt");

-- CreateIndex
CREATE INDEX "rejected_numbers_batchId_idx" ON "rejected_numbers"("batchId");

-- CreateIndex
CREATE INDEX "notify_attempts_userId_createdAt_idx" ON "notify_attempts"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "notify_attempts_batchId_idx" ON "notify_attempts"("batchId");

-- CreateIndex
CREATE INDEX "sms_templates_tenantId_scene_idx" ON "sms_templates"("tenantId", "scene");

-- CreateIndex
CREATE INDEX "sms_records_tenantId_createdAt_idx" ON "sms_records"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "notices_tenantId_status_publishedAt_idx" ON "notices"("tenantId", "status", "publishedAt");

-- AddForeignKey
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "website_configs" ADD CONSTRAINT "website_configs_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "website_configs" ADD CONSTRAINT "website_configs_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "balance_logs" ADD CONSTRAINT "balance_logs_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "remittances" ADD CONSTRAINT "remittances_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "authentications" ADD CONSTRAINT "authentications_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_defaultChannelId_fkey" FOREIGN KEY ("defaultChannelId") REFERENCES "channels"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prices" ADD CONSTRAINT "prices_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_prices" ADD CONSTRAINT "customer_prices_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_prices" ADD CONSTRAINT "customer_prices_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_routes" ADD CONSTRAINT "channel_routes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_routes" ADD CONSTRAINT "channel_routes_productId_fkey" FOREIGN KEY ("productId") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_routes" ADD CONSTRAINT "channel_routes_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "channels"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_batches" ADD CONSTRAINT "message_batches_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sms_templates" ADD CONSTRAINT "sms_templates_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sms_records" ADD CONSTRAINT "sms_records_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "sms_templates"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notices" ADD CONSTRAINT "notices_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
