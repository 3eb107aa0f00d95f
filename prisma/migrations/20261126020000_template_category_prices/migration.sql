-- WhatsApp bills a template message by its category (marketing, utility, authentication) and the user's country;
-- a WS product can carry a price per category beside its message price (null: the message price applies).
ALTER TABLE "prices" ADD COLUMN "marketingPrice" BIGINT, ADD COLUMN "utilityPrice" BIGINT, ADD COLUMN "authenticationPrice" BIGINT;
ALTER TABLE "customer_prices" ADD COLUMN "marketingPrice" BIGINT, ADD COLUMN "utilityPrice" BIGINT, ADD COLUMN "authenticationPrice" BIGINT;
ALTER TABLE "prices" ADD CONSTRAINT "prices_categoryPrices_check" CHECK (("marketingPrice" IS NULL OR "marketingPrice" > 0) AND ("utilityPrice" IS NULL OR "utilityPrice" > 0) AND ("authenticationPrice" IS NULL OR "authenticationPrice" > 0));
ALTER TABLE "customer_prices" ADD CONSTRAINT "customer_prices_categoryPrices_check" CHECK (("marketingPrice" IS NULL OR "marketingPrice" > 0) AND ("utilityPrice" IS NULL OR "utilityPrice" > 0) AND ("authenticationPrice" IS NULL OR "authenticationPrice" > 0));
