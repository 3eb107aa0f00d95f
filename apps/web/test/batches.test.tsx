import { BATCH_REASON_TEXT_MAX } from "@switchboard/contracts";
import { BatchStatus } from "@switchboard/contracts/codes";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it, vi } from "vitest";
import { fileNameFromDisposition } from "../src/features/batches/api";
import { BatchCounts } from "../src/features/batches/components/BatchCounts";
import { BatchDetailView } from "../src/features/batches/components/BatchDetailView";
import { BatchProgress } from "../src/features/batches/components/BatchProgress";
import { BatchStatusTag } from "../src/features/batches/components/BatchStatusTag";
import { ReviewModal } from "../src/features/batches/components/ReviewModal";
import {
  LIVE_INTERVAL_MS,
  liveInterval,
  progressOf,
  SCHEDULED_INTERVAL_MS,
  statusKey,
} from "../src/features/batches/status";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 10_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

function row(over: Record<string, unknown> = {}) {
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
    status: BatchStatus.UNDER_REVIEW,
    preview: "Hello there",
    senderId: null,
    segments: 1,
    scheduledAt: null,
    fileName: null,
    ingesting: false,
    ingestedCount: 0,
    totalCount: 20,
    validCount: 18,
    invalidCount: 1,
    duplicateCount: 1,
    notServedCount: 0,
    sentCount: 0,
    successCount: 0,
    failedCount: 0,
    deliveredCount: 0,
    undeliveredCount: 0,
    readCount: 0,
    fallbackCount: 0,
    progress: 0,
    cost: "6.3000",
    refunded: "0.0000",
    reason: null,
    reviewedAt: null,
    startedAt: null,
    finishedAt: null,
    createdAt: "2026-01-05T08:00:00.000Z",
    ...over,
  };
}

function detail(over: Record<string, unknown> = {}) {
  return {
    ...row(over),
    content: { product: 3000, text: "Your code is 1234. 您好" },
    reviewer: null,
    countries: [{ countryCode: "CN", count: 18, cost: "6.3000" }],
  };
}

function renderInApp(node: React.ReactNode) {
  mockFetchIfNone();
  return renderRoutes([{ path: "/", element: <App>{node}</App> }], "/");
}

/** Pages without calls of their own still load the website config. */
function mockFetchIfNone() {
  if (!vi.isMockFunction(globalThis.fetch)) mockFetch({ "/website/config": websiteConfig });
}

// ---------------------------------------------------------------- status names and progress

describe("batch status tag", () => {
  it("names every status as the spec does, in Chinese and English", async () => {
    renderInApp(
      <>
        <BatchStatusTag status={11} />
        <BatchStatusTag status={22} />
        <BatchStatusTag status={29} />
        <BatchStatusTag status={77} />
      </>,
    );
    const tags = await screen.findAllByTestId("batch-status");
    expect(tags.map((t) => t.textContent)).toEqual(["审核中", "发送完成", "发送取消", "状态 77"]);
    expect(tags[1]).toHaveAttribute("data-status", "22");
  });

  it("speaks English when chosen, and says when a file is being read", async () => {
    storage.setLang("en");
    renderInApp(<BatchStatusTag status={13} ingesting />);
    expect(await screen.findByTestId("batch-status")).toHaveTextContent("Review rejected");
    expect(screen.getByTestId("batch-ingesting")).toHaveTextContent("Reading numbers");
  });

  it("shows a file batch whose numbers are being read as importing with its progress, not under review", async () => {
    renderInApp(
      <>
        <BatchStatusTag status={11} ingesting progress={30} />
        <BatchStatusTag status={11} ingesting />
        <BatchStatusTag status={11} />
      </>,
    );
    const tags = await screen.findAllByTestId("batch-status");
    expect(tags.map((t) => t.textContent)).toEqual(["导入中 30%", "导入中", "审核中"]);
    // the server's status stays readable for the tests and tools that follow it
    expect(tags[0]).toHaveAttribute("data-status", "11");
    expect(tags[0]).toHaveAttribute("data-importing", "true");
    expect(tags[2]).not.toHaveAttribute("data-importing");
    // no second "reading numbers" tag beside "importing"
    expect(screen.queryByTestId("batch-ingesting")).toBeNull();
  });

  it("marks a screening batch (task type 1) as one", async () => {
    renderInApp(<BatchStatusTag status={22} taskType={1} />);
    expect(await screen.findByTestId("batch-screening-tag")).toHaveTextContent("号码筛查");
  });

  it("names a screening batch's counts reachable, not reachable and unknown", async () => {
    const counts = {
      totalCount: 10,
      validCount: 10,
      invalidCount: 0,
      duplicateCount: 0,
      notServedCount: 0,
      sentCount: 10,
      successCount: 9,
      failedCount: 1,
      deliveredCount: 1_200,
      undeliveredCount: 2,
      readCount: 0,
      fallbackCount: 0,
      cost: "0.0400",
      refunded: "0.0040",
      productCode: 1000,
    };
    renderInApp(<BatchCounts batch={{ ...counts, taskType: 1 }} />);
    expect(await screen.findByTestId("count-reachable")).toHaveTextContent("可达1,200");
    expect(screen.getByTestId("count-unreachable")).toHaveTextContent("不可达2");
    expect(screen.getByTestId("count-unknown")).toHaveTextContent("未知1");
    expect(screen.queryByTestId("count-read")).toBeNull();
  });

  it("knows the nine status codes and no others", () => {
    for (const code of [11, 12, 13, 20, 21, 22, 23, 24, 29]) expect(statusKey(code)).toBe(`status.${code}`);
    expect(statusKey(10)).toBeNull();
  });
});

describe("progress", () => {
  it("shows the file being read while ingesting", () => {
    const p = progressOf(row({ ingesting: true, ingestedCount: 3000, totalCount: 10000, progress: 30 }));
    expect(p).toMatchObject({ phase: "ingesting", done: 3000, total: 10000, percent: 30, state: "active" });
  });

  it("shows sent of valid while sending, full and successful once finished", () => {
    expect(progressOf(row({ status: 21, sentCount: 9, validCount: 18, progress: 50 }))).toMatchObject({
      phase: "sending",
      done: 9,
      total: 18,
      percent: 50,
      state: "active",
    });
    expect(progressOf(row({ status: 22, sentCount: 18, progress: 100 }))).toMatchObject({
      percent: 100,
      state: "success",
    });
  });

  it("a batch stopped part way shows how far it got, not the server's final 100", () => {
    expect(progressOf(row({ status: 23, sentCount: 6, validCount: 18, progress: 100 }))).toMatchObject({
      percent: 33,
      state: "exception",
    });
    expect(progressOf(row({ status: 29, progress: 100 }))).toMatchObject({ percent: 0, state: "exception" });
  });

  it("a failed batch names its end in red, never a full green 'sent 2 / 2'", async () => {
    expect(progressOf(row({ status: 24, sentCount: 2, validCount: 2, failedCount: 2, progress: 100 }))).toMatchObject({
      phase: "ended",
      done: 2,
      total: 2,
      failed: 2,
      state: "exception",
    });
    renderInApp(
      <BatchProgress batch={row({ status: 24, sentCount: 2, validCount: 2, failedCount: 2, progress: 100 })} />,
    );
    const bar = await screen.findByTestId("batch-progress");
    expect(bar).toHaveAttribute("data-state", "exception");
    expect(bar).toHaveTextContent("发送失败：已发送 2 / 2，失败 2");
    expect(bar.querySelector(".ant-progress-status-exception")).not.toBeNull();
    expect(bar.querySelector(".ant-progress-status-success")).toBeNull();
  });

  it("a batch that ended before sending anything says so", async () => {
    storage.setLang("en");
    renderInApp(<BatchProgress batch={row({ status: 13, progress: 100 })} />);
    expect(await screen.findByTestId("batch-progress")).toHaveTextContent("Review rejected: nothing sent");
  });

  it("renders its label with separators", async () => {
    renderInApp(<BatchProgress batch={row({ status: 21, sentCount: 1500, validCount: 3000, progress: 50 })} />);
    const bar = await screen.findByTestId("batch-progress");
    expect(bar).toHaveAttribute("data-percent", "50");
    expect(bar).toHaveTextContent("已发送 1,500 / 3,000");
  });
});

describe("live refresh", () => {
  const now = Date.parse("2026-01-05T08:00:00.000Z");
  const r = (status: number, o: { ingesting?: boolean; scheduledAt?: string | null } = {}) => ({
    status,
    ingesting: o.ingesting ?? false,
    scheduledAt: o.scheduledAt ?? null,
  });

  it("polls every 2 s while a row is ingesting, passed, pending and due, or sending", () => {
    expect(liveInterval([r(22), r(11, { ingesting: true })], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([r(12)], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([r(20)], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([r(21)], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([r(20, { scheduledAt: "2026-01-05T08:00:30.000Z" })], now)).toBe(LIVE_INTERVAL_MS);
  });

  it("checks a batch scheduled later now and then, and stops when nothing can move by itself", () => {
    expect(liveInterval([r(20, { scheduledAt: "2026-01-06T08:00:00.000Z" })], now)).toBe(SCHEDULED_INTERVAL_MS);
    expect(liveInterval([r(11), r(13), r(22), r(23), r(24), r(29)], now)).toBe(false);
    expect(liveInterval([], now)).toBe(false);
    expect(liveInterval(undefined, now)).toBe(false);
  });

  it("keeps refreshing an ended batch while its receipts are still coming, for a while", () => {
    const ended = (status: number, minutesAgo: number, counts: [number, number, number]) => ({
      ...r(status),
      finishedAt: new Date(now - minutesAgo * 60_000).toISOString(),
      successCount: counts[0],
      deliveredCount: counts[1],
      undeliveredCount: counts[2],
    });
    // 7 sent, 5 receipts in: 2 outstanding.
    expect(liveInterval([ended(22, 0.5, [7, 5, 0])], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([ended(23, 1, [7, 4, 1])], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([ended(22, 5, [7, 5, 0])], now)).toBe(SCHEDULED_INTERVAL_MS);
    // every receipt in (delivered or not), too long ago, or a batch that sent nothing more
    expect(liveInterval([ended(22, 0.5, [7, 6, 1])], now)).toBe(false);
    expect(liveInterval([ended(22, 16, [7, 5, 0])], now)).toBe(false);
    expect(liveInterval([ended(29, 0.5, [7, 0, 0])], now)).toBe(false);
    // the closest wins when rows disagree
    expect(liveInterval([ended(22, 5, [7, 5, 0]), ended(22, 0.5, [3, 1, 0])], now)).toBe(LIVE_INTERVAL_MS);
    expect(liveInterval([r(20, { scheduledAt: "2026-01-06T08:00:00.000Z" }), ended(22, 1, [2, 1, 0])], now)).toBe(
      LIVE_INTERVAL_MS,
    );
  });
});

describe("export file name", () => {
  it("reads the name from content-disposition, else gives null", () => {
    expect(fileNameFromDisposition('attachment; filename="batch-42-recipients.csv"')).toBe("batch-42-recipients.csv");
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E5%8F%B7%E7%A0%81.csv")).toBe("号码.csv");
    expect(fileNameFromDisposition('attachment; filename="../x.csv"')).toBe(".._x.csv");
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

// ---------------------------------------------------------------- detail: replies

describe("batch detail replies", () => {
  const wsDetail = (over: Record<string, unknown> = {}) => ({
    ...detail({ productCode: 2000, productName: "WhatsApp", status: 22, ...over }),
    content: { product: 2000, body: { type: "text", text: "Your table is ready", previewUrl: false } },
  });
  const empty = { body: envelope({ list: [], total: 0 }) };

  it("lists what WhatsApp users wrote back, taps with their payload", async () => {
    const { requests } = mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(wsDetail()) },
      "GET /batch/recipients": empty,
      "GET /batch/replies": {
        body: envelope({
          list: [
            {
              id: "2",
              phone: "+12025550124",
              text: "Confirm",
              postbackData: "CONFIRM",
              receivedAt: "2026-01-05T08:01:00Z",
            },
            {
              id: "1",
              phone: "+12025550123",
              text: "On my way",
              postbackData: null,
              receivedAt: "2026-01-05T08:00:30Z",
            },
          ],
          total: 2,
        }),
      },
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    const list = await screen.findByTestId("reply-list");
    expect(await within(list).findByText("On my way")).toBeInTheDocument();
    expect(within(list).getByText("按钮/建议回复：CONFIRM")).toBeInTheDocument();
    expect(within(list).getByText("+12025550124")).toBeInTheDocument();
    expect(requests.find((r) => r.url.pathname === "/batch/replies")?.url.searchParams.get("id")).toBe("42");
  });

  it("lists SMS replies too (users writing back by SMS)", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(detail({ status: 22 })) },
      "GET /batch/recipients": empty,
      "GET /batch/replies": {
        body: envelope({
          list: [
            { id: "7", phone: "+12025550130", text: "STOP", postbackData: null, receivedAt: "2026-01-05T08:02:00Z" },
          ],
          total: 1,
        }),
      },
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    const list = await screen.findByTestId("reply-list");
    expect(await within(list).findByText("STOP")).toBeInTheDocument();
    expect(within(list).getByText("+12025550130")).toBeInTheDocument();
  });

  it("says when nobody replied, and shows no replies for screening", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(wsDetail()) },
      "GET /batch/recipients": empty,
      "GET /batch/replies": empty,
    });
    const view = renderInApp(<BatchDetailView batchId="42" staff={false} />);
    expect(await screen.findByText("暂无回复")).toBeInTheDocument();
    view.unmount();

    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(detail({ status: 22, taskType: 1 })) },
      "GET /batch/recipients": empty,
    });
    renderInApp(<BatchDetailView batchId="42" staff={false} />);
    await screen.findByTestId("recipient-list");
    expect(screen.queryByTestId("reply-list")).not.toBeInTheDocument();
  });
});

// ---------------------------------------------------------------- review modal

describe("review and update modal", () => {
  function setup(over: Record<string, unknown>, answers: Parameters<typeof mockFetch>[0] = {}) {
    const onClose = vi.fn();
    const mocked = mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { body: envelope(detail(over)) },
      ...answers,
    });
    renderInApp(<ReviewModal batchId="42" onClose={onClose} />);
    return { onClose, ...mocked };
  }

  it("shows the content as the recipient sees it, with its segments", async () => {
    setup({});
    const preview = await screen.findByTestId("content-preview");
    expect(within(preview).getByTestId("preview-text")).toHaveTextContent("Your code is 1234. 您好");
    expect(screen.getByTestId("preview-meta")).toHaveTextContent("1 条短信 · 21 字符 · UCS-2 编码");
    expect(screen.getByText("18 个有效号码，费用 6.30")).toBeInTheDocument();
  });

  it("rejecting requires a reason; with one it posts the reason and closes", async () => {
    const { requests, onClose } = setup(
      {},
      { "POST /batch/review/reject": { body: envelope(row({ status: 13, reason: "spam" })) } },
    );
    await userEvent.click(await screen.findByTestId("review-reject"));
    await userEvent.click(screen.getByTestId("review-submit"));
    expect(await screen.findByText("请输入驳回原因")).toBeInTheDocument();
    await userEvent.type(screen.getByTestId("review-reason"), "   ");
    await userEvent.click(screen.getByTestId("review-submit"));
    expect(await screen.findByText("请输入驳回原因")).toBeInTheDocument();
    expect(requests.filter((r) => r.url.pathname === "/batch/review/reject")).toHaveLength(0);

    await userEvent.clear(screen.getByTestId("review-reason"));
    await userEvent.type(screen.getByTestId("review-reason"), "  Looks like spam ");
    await userEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    const sent = requests.find((r) => r.url.pathname === "/batch/review/reject");
    expect(sent?.body).toEqual({ id: "42", reason: "Looks like spam" });
  });

  it("the reason's counter and its placeholder give the same limit, the contract's", async () => {
    setup({});
    await userEvent.click(await screen.findByTestId("review-reject"));
    const reason = await screen.findByTestId("review-reason");
    const max = BATCH_REASON_TEXT_MAX.toLocaleString("en-US");
    expect(reason).toHaveAttribute("placeholder", `告知客户为何驳回（最多 ${max} 字）`);
    expect(reason).toHaveAttribute("maxLength", String(BATCH_REASON_TEXT_MAX));
    expect(reason.closest(".ant-input-textarea-show-count")).toHaveAttribute(
      "data-count",
      `0 / ${BATCH_REASON_TEXT_MAX}`,
    );
  });

  it("passing sends the batch's schedule (the customer's, shown in the picker)", async () => {
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setMilliseconds(0);
    const { requests, onClose } = setup(
      { scheduledAt: at.toISOString() },
      { "POST /batch/review/pass": { body: envelope(row({ status: 20 })) } },
    );
    const picker = await screen.findByTestId("review-schedule");
    await waitFor(() => expect(picker).not.toHaveValue(""), slow);
    await userEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    const sent = requests.find((r) => r.url.pathname === "/batch/review/pass");
    expect(sent?.body).toEqual({ id: "42", scheduledAt: at.toISOString() });
  });

  it("passing with a schedule typed into the picker sends it", async () => {
    const { requests, onClose } = setup({}, { "POST /batch/review/pass": { body: envelope(row({ status: 20 })) } });
    const picker = await screen.findByTestId("review-schedule");
    await userEvent.click(picker);
    await userEvent.type(picker, "2099-03-04 05:06:07{Enter}");
    await userEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    const sent = requests.find((r) => r.url.pathname === "/batch/review/pass");
    expect(sent?.body).toEqual({ id: "42", scheduledAt: new Date(2099, 2, 4, 5, 6, 7).toISOString() });
  });

  it("passing without a schedule sends the id only", async () => {
    const { requests, onClose } = setup({}, { "POST /batch/review/pass": { body: envelope(row({ status: 20 })) } });
    await userEvent.click(await screen.findByTestId("review-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    expect(requests.find((r) => r.url.pathname === "/batch/review/pass")?.body).toEqual({ id: "42" });
  });

  it("shows the server's refusal inside the modal and stays open", async () => {
    const { onClose } = setup(
      {},
      {
        "POST /batch/review/pass": {
          status: 409,
          body: envelope(null, 1, "批次状态为 20,当前不能执行此操作"),
        },
      },
    );
    await userEvent.click(await screen.findByTestId("review-submit"));
    expect(await screen.findByTestId("review-error")).toHaveTextContent("批次状态为 20,当前不能执行此操作");
    expect(onClose).not.toHaveBeenCalled();
  });

  it("a pending batch gets a new send time; cleared means send at once", async () => {
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const { requests, onClose } = setup(
      { status: 20, scheduledAt: at },
      { "POST /batch/schedule": { body: envelope(row({ status: 20 })) } },
    );
    expect(await screen.findByText("修改发送时间")).toBeInTheDocument();
    expect(screen.queryByTestId("review-reject")).not.toBeInTheDocument();
    const picker = screen.getByTestId("review-schedule");
    await waitFor(() => expect(picker).not.toHaveValue(""), slow);
    const clear = picker.closest(".ant-picker")?.querySelector(".ant-picker-clear");
    expect(clear).toBeTruthy();
    await userEvent.setup({ pointerEventsCheck: 0 }).click(clear as Element);
    await userEvent.click(screen.getByTestId("review-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled(), slow);
    expect(requests.find((r) => r.url.pathname === "/batch/schedule")?.body).toEqual({ id: "42", scheduledAt: null });
  });

  it("offers nothing to do for a batch still being read or already sending", async () => {
    setup({ ingesting: true });
    expect(await screen.findByText("号码文件仍在读取中，读取完成后才能通过。")).toBeInTheDocument();
    expect(screen.queryByTestId("review-submit")).not.toBeInTheDocument();
  });

  it("says a load failure", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /batch/detail": { status: 404, body: envelope(null, 1, "批次不存在") },
    });
    renderInApp(<ReviewModal batchId="42" onClose={() => {}} />);
    expect(await screen.findByText("批次不存在")).toBeInTheDocument();
  });
});
