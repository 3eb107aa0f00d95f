-- Tracked links (issue 18, docs/batches.md, "Tracked links"): one row per click on a short link /l/<code>. The code
-- names the recipient and the link's index in its batch's link list (the content, fixed at submission), so no row
-- exists before a click. No IP address is kept, the user agent only cut short. No foreign keys: a click is written
-- on the redirect's hot path, and the recipient it names was read just before.
CREATE TABLE "link_clicks" (
    "id" BIGSERIAL NOT NULL,
    "batchId" BIGINT NOT NULL,
    "recipientId" BIGINT NOT NULL,
    "linkIndex" SMALLINT NOT NULL,
    "clickedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userAgent" VARCHAR(120),

    CONSTRAINT "link_clicks_pkey" PRIMARY KEY ("id")
);

-- The batch detail's figures per link (clicks, distinct recipients) and the dashboards' distinct clickers a batch.
CREATE INDEX "link_clicks_batchId_linkIndex_recipientId_idx" ON "link_clicks"("batchId", "linkIndex", "recipientId");
