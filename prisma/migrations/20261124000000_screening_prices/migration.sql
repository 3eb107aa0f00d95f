-- Screening (task type 1) is priced per number, per product and country, apart from the message price.
ALTER TABLE "prices" ADD COLUMN "screeningPrice" BIGINT;
ALTER TABLE "customer_prices" ADD COLUMN "screeningPrice" BIGINT;
ALTER TABLE "prices" ADD CONSTRAINT "prices_screeningPrice_check" CHECK ("screeningPrice" IS NULL OR "screeningPrice" > 0);
ALTER TABLE "customer_prices" ADD CONSTRAINT "customer_prices_screeningPrice_check" CHECK ("screeningPrice" IS NULL OR "screeningPrice" > 0);
