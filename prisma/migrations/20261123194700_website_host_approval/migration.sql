-- AlterTable
ALTER TABLE "website_configs" ADD COLUMN     "hostApprovedAt" TIMESTAMPTZ(3);

-- Hosts configured before approval existed keep working: they were already live.
UPDATE "website_configs" SET "hostApprovedAt" = "createdAt";
