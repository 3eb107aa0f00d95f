// What the back office reads on a batch beyond the customer's view: the channel that carried each recipient (by
// name) and why a batch is held for review.
import type { BatchDetail, RecipientRow } from "@switchboard/contracts";
import { BatchStatus } from "@switchboard/contracts/codes";
import { screen, within } from "@testing-library/react";
import { App } from "antd";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { BatchDetailView } from "../src/features/batches/components/BatchDetailView";
import { ReviewModal } from "../src/features/batches/components/ReviewModal";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

function batchDetail(over: Partial<BatchDetail> = {}): BatchDetail {
  return {
    id: "42",
    userId: 7,
    user: "customer",
    agentId: 3,
    productId: 1,
    productCode: 3000,
    productName: "SMS",
    taskType: 2,
    submitMode: 2,
    source: 1,
    status: BatchStatus.SEND_FINISHED,
    preview: "Hello there",
    senderId: null,
    segments: 1,
    scheduledAt: null,
    fileName: null,
    ingesting: false,
    ingestedCount: 0,
    totalCount: 2,
    validCount: 2,
    invalidCount: 0,
    duplicateCount: 0,
    notServedCount: 0,
    sentCount: 2,
    successCount: 2,
    failedCount: 0,
    deliveredCount: 2,
    undeliveredCount: 0,
    readCount: 0,
    fallbackCount: 0,
    progress: 100,
    cost: "0.7000",
    refunded: "0.0000",
    reason: null,
    reviewedAt: null,
    startedAt: null,
    finishedAt: null,
    createdAt: "2026-01-05T08:00:00.000Z",
    content: { product: 3000, text: "Hello there" },
    reviewer: null,
    reviewReasons: null,
    countries: [{ countryCode: "CN", count: 2, cost: "0.7000" }],
    links: null,
    ...over,
  };
}

function recipient(over: Partial<RecipientRow>): RecipientRow {
  return {
    id: "1",
    phone: "+8613800138000",
    countryCode: "CN",
    channelId: null,
    channelName: null,
    segments: 1,
    price: "0.3500",
    sendResult: 1,
    receiveResult: 1,
    errorCode: null,
    sentAt: "2026-01-05T08:01:00.000Z",
    receivedAt: "2026-01-05T08:01:05.000Z",
    readAt: null,
    fellBackToSms: false,
    ...over,
  };
}

function renderInApp(node: ReactNode) {
  return renderRoutes([{ path: "/", element: <App>{node}</App> }], "/");
}

describe("batch detail: channels", () => {
  it("names the channel that carried each recipient for staff (the id only for a channel deleted since)", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(batchDetail()) },
      "GET /batch/recipients": {
        body: envelope({
          list: [
            recipient({ id: "1", channelId: 4, channelName: "China Mobile SMSC" }),
            recipient({ id: "2", phone: "+8613800138001", channelId: 9, channelName: null }),
          ],
          total: 2,
        }),
      },
    });
    renderInApp(<BatchDetailView batchId="42" staff />);
    const list = await screen.findByTestId("recipient-list");
    await within(list).findByText("China Mobile SMSC");
    const rows = within(list).getAllByRole("row");
    expect(within(list).getByRole("columnheader", { name: "通道" })).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent("China Mobile SMSC");
    expect(rows[1]).not.toHaveTextContent(/(^|\D)4(\D|$)/);
    expect(rows[2]).toHaveTextContent("#9");
  });

  it("shows customers no channel column", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(batchDetail()) },
      "GET /batch/recipients": { body: envelope({ list: [recipient({})], total: 1 }) },
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    const list = await screen.findByTestId("recipient-list");
    await within(list).findByText("+8613800138000");
    expect(within(list).queryByRole("columnheader", { name: "通道" })).toBeNull();
  });
});

describe("batch detail: tracked links", () => {
  const links = {
    sent: 12_000,
    clickers: 1_500,
    clickRate: 0.125,
    links: [
      { index: 0, url: "https://shop.example/spring", clicks: 2_345, clickers: 1_400, clickRate: 0.1167 },
      { index: 1, url: "https://shop.example/terms", clicks: 120, clickers: 100, clickRate: 0.0083 },
    ],
  };
  const show = (lang?: "en") => {
    if (lang) storage.setLang(lang);
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(batchDetail({ links })) },
      "GET /batch/recipients": { body: envelope({ list: [], total: 0 }) },
    });
    return renderInApp(<BatchDetailView batchId="42" staff={false} />);
  };

  it("lists each link with its clicks, clickers and click-through rate, with separators", async () => {
    show();
    const card = await screen.findByTestId("batch-links");
    expect(within(card).getByTestId("batch-links-summary")).toHaveTextContent(
      "1,500 位收件人点击了链接，点击率 12.50%（点击人数 / 发送成功 12,000）",
    );
    const rows = within(card).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("https://shop.example/spring");
    expect(rows[1]).toHaveTextContent("2,345");
    expect(rows[1]).toHaveTextContent("1,400");
    expect(rows[1]).toHaveTextContent("11.67%");
    expect(rows[2]).toHaveTextContent("0.83%");
  });

  it("speaks English", async () => {
    show("en");
    try {
      const card = await screen.findByTestId("batch-links");
      expect(within(card).getByTestId("batch-links-summary")).toHaveTextContent(
        "1,500 recipients clicked a link: click-through rate 12.50% (clickers / 12,000 sent)",
      );
      expect(within(card).getByRole("columnheader", { name: "Click-through rate" })).toBeInTheDocument();
    } finally {
      storage.setLang("zh");
    }
  });

  it("counts the content's segments with its links as the short links sent", async () => {
    const text = `${"a".repeat(120)}{{link:https://shop.example/a-long-campaign-path?utm_source=sms}}`;
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": {
        body: envelope(batchDetail({ links, content: { product: 3000, text, linkBaseUrl: "https://sb.example" } })),
      },
      "GET /batch/recipients": { body: envelope({ list: [], total: 0 }) },
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    // 120 characters and a short link of 18 + 3 + 19: one segment of 160, whatever the target's own length.
    expect(await screen.findByTestId("preview-meta")).toHaveTextContent("1 条短信 · 160 字符");
  });

  it("has no links card without links", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(batchDetail()) },
      "GET /batch/recipients": { body: envelope({ list: [], total: 0 }) },
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    await screen.findByTestId("recipient-list");
    expect(screen.queryByTestId("batch-links")).toBeNull();
  });
});

describe("review modal: why the batch is held, and a title that says what it can do", () => {
  function openModal(over: Partial<BatchDetail>) {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(batchDetail({ status: BatchStatus.UNDER_REVIEW, progress: 0, ...over })) },
    });
    return renderInApp(<ReviewModal batchId="42" onClose={() => {}} />);
  }

  it("lists the sensitive words found and the rules that held the batch, with separators", async () => {
    openModal({
      reviewReasons: [
        { kind: "sensitive_word", words: ["casino", "赌博"] },
        { kind: "above_threshold", threshold: 1000, recipients: 25_000 },
      ],
    });
    const reasons = await screen.findByTestId("review-reasons");
    expect(reasons).toHaveTextContent("为何需要审核");
    expect(within(reasons).getByTestId("review-reason-sensitive_word")).toHaveTextContent(
      "内容包含敏感词：casino、赌博",
    );
    expect(within(reasons).getByTestId("review-reason-above_threshold")).toHaveTextContent(
      "审核规则：有效号码 25,000 个，超过审核阈值 1,000 个",
    );
    expect(screen.getByText("审核批次 42")).toBeInTheDocument();
    expect(screen.queryByText(/审核与修改/)).toBeNull();
  });

  it("names review mode 1, and says when no reason was recorded", async () => {
    const view = openModal({ reviewReasons: [{ kind: "review_all" }] });
    expect(await screen.findByTestId("review-reason-review_all")).toHaveTextContent("审核规则：所有批次都需审核");
    view.unmount();
    openModal({ reviewReasons: null });
    expect(await screen.findByTestId("review-reasons")).toHaveTextContent("未记录审核原因");
  });

  it("is titled for the send time of a batch pending send, with no reasons", async () => {
    openModal({ status: BatchStatus.PENDING_SEND, reviewReasons: null, scheduledAt: "2099-01-01T00:00:00.000Z" });
    expect(await screen.findByText("修改发送时间 · 批次 42")).toBeInTheDocument();
    expect(screen.queryByTestId("review-reasons")).toBeNull();
  });

  it("speaks English", async () => {
    storage.setLang("en");
    try {
      openModal({ reviewReasons: [{ kind: "sensitive_word", words: ["casino", "lottery"] }] });
      expect(await screen.findByTestId("review-reason-sensitive_word")).toHaveTextContent(
        "The content contains sensitive words: casino, lottery",
      );
      expect(screen.getByText("Review batch 42")).toBeInTheDocument();
    } finally {
      storage.setLang("zh");
    }
  });
});
