import type { SubmitPreResult } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { countSegments } from "@switchboard/contracts/sms-segments";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App, ConfigProvider } from "antd";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "../src/app/providers";
import { DirectTaskModal } from "../src/features/batch-submit/components/DirectTaskModal";
import { messages } from "../src/features/batch-submit/messages";
import { buildContent, checkFile, emptyDraft, parseNumbers, segmentText } from "../src/features/batch-submit/model";
import { createQueryClient } from "../src/lib/query";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { type Answer, envelope, mockFetch, type RecordedRequest } from "./helpers";

const slow = { timeout: 15_000 };

const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };
/** The customer's approved sender ids: the SMS editor's sender is chosen among them. */
const approvedSenderIds = {
  body: envelope({
    list: [
      {
        id: 1,
        userId: 9,
        user: "acme",
        senderId: "Acme",
        countryCode: null,
        kind: "alphanumeric",
        status: 2,
        note: null,
        reason: null,
        reviewerId: null,
        reviewedAt: "2026-11-20T08:00:00.000Z",
        createdAt: "2026-11-20T07:00:00.000Z",
        updatedAt: "2026-11-20T08:00:00.000Z",
      },
    ],
    total: 1,
  }),
};
const stub = (answers: Record<string, Answer | ((req: RecordedRequest) => Answer)>) =>
  mockFetch({ "/website/config": websiteConfig, "/sender-id/list": approvedSenderIds, ...answers });

function renderModal(productCode: ProductCode = ProductCode.SMS) {
  const onClose = vi.fn<() => void>();
  const onSubmitted = vi.fn<(id: string) => void>();
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>
          <DirectTaskModal productCode={productCode} open onClose={onClose} onSubmitted={onSubmitted} />
        </App>
      </ConfigProvider>
    </AppProviders>,
  );
  return { onClose, onSubmitted, ...view };
}

function preResult(overrides: Partial<SubmitPreResult> = {}): SubmitPreResult {
  return {
    total: 12_345,
    valid: 12_000,
    invalid: 300,
    duplicate: 45,
    rejected: [],
    notServed: 0,
    windowClosed: 0,
    countries: [
      {
        countryCode: "CN",
        count: 11_000,
        served: true,
        reason: null,
        unitPrice: "0.0500",
        fallbackPrice: null,
        cost: "550.0000",
      },
      {
        countryCode: "SG",
        count: 1_000,
        served: true,
        reason: null,
        unitPrice: "0.6845",
        fallbackPrice: null,
        cost: "684.5000",
      },
    ],
    segments: 1,
    encoding: "gsm7",
    totalCost: "1234.5000",
    balance: "5000.0000",
    sufficient: true,
    authenticationAllowed: true,
    authenticationReason: null,
    reviewRequired: false,
    ...overrides,
  };
}

const batch = (id: string) => ({ id, cost: "0.0500" });

beforeEach(() => {
  storage.setLang("en");
  storage.saveSession("tok-1", { userType: UserType.USER, tenantId: "7", agentId: "5" });
  stub({});
});

/** The modal's own calls (the providers also load the website configuration). */
/** Checks and submissions (the WS editor's template list is a read, not one of them). */
const batchCalls = (requests: RecordedRequest[]) =>
  requests.filter(
    (r) => /^\/(user\/submit|batch)\//.test(r.url.pathname) && r.url.pathname !== "/batch/whatsapp/templates",
  );

describe("SMS counter", slow, () => {
  const t = messages.translate;
  const en = (key: Parameters<typeof t>[0], params?: Parameters<typeof t>[1]) => t(key, params, "en");

  it.each([
    ["a".repeat(72), "72 characters · 1 segment · GSM-7"],
    ["a".repeat(160), "160 characters · 1 segment · GSM-7"],
    ["a".repeat(161), "161 characters · 2 segments · GSM-7"],
    ["{}".repeat(40), "160 characters · 1 segment · GSM-7"],
    ["你好".repeat(35), "70 characters · 1 segment · UCS-2"],
    ["你好".repeat(36), "72 characters · 2 segments · UCS-2"],
    ["a".repeat(1000), "1,000 characters · 7 segments · GSM-7"],
  ])("counts %#", (text, expected) => {
    expect(segmentText(countSegments(text), en)).toBe(expected);
  });

  it("updates live as the text is typed, in the modal", async () => {
    renderModal();
    const input = await screen.findByTestId("task-sms-text");
    const counter = screen.getByTestId("task-segments");
    expect(counter).toHaveTextContent("0 characters · 0 segments · GSM-7");
    fireEvent.change(input, { target: { value: "Hello ".repeat(12) } });
    expect(counter).toHaveTextContent("72 characters · 1 segment · GSM-7");
    fireEvent.change(input, { target: { value: "Hello €" } });
    expect(counter).toHaveTextContent("8 characters · 1 segment · GSM-7");
    fireEvent.change(input, { target: { value: `${"x".repeat(69)}é€ü😀` } });
    expect(counter).toHaveTextContent("74 characters · 2 segments · UCS-2");
  });

  it("counts a tracked link as the short link it is sent as (the deployment's length)", async () => {
    mockFetch({
      "/website/config": {
        body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null, shortLinkLength: 40 }),
      },
      "/sender-id/list": approvedSenderIds,
    });
    renderModal();
    const input = await screen.findByTestId("task-sms-text");
    const counter = screen.getByTestId("task-segments");
    const link = "{{link:https://shop.example/a-long-campaign-path?utm_source=sms}}";
    fireEvent.change(input, { target: { value: `${"a".repeat(120)}${link}` } });
    await waitFor(() => expect(counter).toHaveTextContent("160 characters · 1 segment · GSM-7"));
    fireEvent.change(input, { target: { value: `${"a".repeat(121)}${link}` } });
    expect(counter).toHaveTextContent("161 characters · 2 segments · GSM-7");
  });

  it("refuses a text over 10 segments and an invalid sender id", () => {
    const long = buildContent(ProductCode.SMS, {
      ...emptyDraft(),
      smsText: "a".repeat(1531),
      senderId: "TOO-LONG-SENDER",
    });
    expect(long.problems?.smsText).toMatchObject({ key: "sms.tooLong", params: { max: 10 } });
    expect(long.problems?.senderId).toMatchObject({ key: "sms.senderInvalid" });
    const ok = buildContent(ProductCode.SMS, { ...emptyDraft(), smsText: "Hi", senderId: " Acme " });
    expect(ok.content).toEqual({ product: ProductCode.SMS, text: "Hi", senderId: "Acme" });
  });

  it("says why a tracked link is refused, and never counts a link's own target against the length", () => {
    const bad = buildContent(ProductCode.SMS, { ...emptyDraft(), smsText: "Go {{link:ftp://x.example}}" });
    expect(bad.problems?.form).toEqual({ key: "content.linkInvalid", params: { url: "ftp://x.example" } });
    const many = Array.from({ length: 6 }, (_, i) => `{{link:https://x.example/${i}}}`).join(" ");
    const tooMany = buildContent(ProductCode.SMS, { ...emptyDraft(), smsText: many });
    expect(tooMany.problems?.form).toEqual({ key: "content.tooManyLinks", params: { max: 5, count: 6 } });
    // 1,400 characters and a 120-character target: the link is sent short, so the text still fits 10 segments.
    const longTarget = `{{link:https://shop.example/${"p".repeat(100)}}}`;
    const fits = buildContent(ProductCode.SMS, { ...emptyDraft(), smsText: `${"a".repeat(1_400)}${longTarget}` });
    expect(fits.problems).toBeNull();
  });
});

describe("recipients", slow, () => {
  it("parses pasted numbers: lines, commas, semicolons, blanks", () => {
    expect(parseNumbers("+8613800138000\n +6591234567 ,, 13900000000;\r\n\n+447700900123，+33612345678")).toEqual([
      "+8613800138000",
      "+6591234567",
      "13900000000",
      "+447700900123",
      "+33612345678",
    ]);
    expect(parseNumbers(" \n , ")).toEqual([]);
  });

  it("shows the live count of pasted numbers and refuses more than 10,000", async () => {
    renderModal();
    await userEvent.click(await screen.findByTestId("task-mode-multiple"));
    const area = screen.getByTestId("task-numbers");
    fireEvent.change(area, { target: { value: "+8613800138000\n+6591234567, +447700900123" } });
    expect(screen.getByTestId("task-numbers-count")).toHaveTextContent("3 numbers");
    const many = Array.from({ length: 10_001 }, (_, i) => `+86138${String(i).padStart(8, "0")}`).join("\n");
    fireEvent.change(area, { target: { value: many } });
    expect(screen.getByTestId("task-numbers-count")).toHaveTextContent("10,001 numbers, at most 10,000");
    expect(await screen.findByText("At most 10,000 numbers at a time; use a file for more")).toBeInTheDocument();
  });

  it("checks a file's type and size before anything is sent", async () => {
    expect(checkFile({ name: "list.CSV", size: 10 })).toBeNull();
    expect(checkFile({ name: "list.xlsx", size: 50 * 1024 * 1024 })).toBeNull();
    expect(checkFile({ name: "list.xlsx", size: 50 * 1024 * 1024 + 1 })).toMatchObject({ key: "file.tooLarge" });
    expect(checkFile({ name: "list.xls", size: 10 })).toMatchObject({ key: "file.badType" });
    expect(checkFile({ name: "list.txt", size: 0 })).toMatchObject({ key: "file.empty" });

    const { requests } = stub({});
    renderModal();
    await userEvent.click(await screen.findByTestId("task-mode-file"));
    const input = screen.getByTestId("task-file-input");
    fireEvent.change(input, { target: { files: [new File(["x"], "numbers.pdf", { type: "application/pdf" })] } });
    expect(
      await screen.findByText("This file type is not supported; please upload a CSV, TXT, XLSX file"),
    ).toBeVisible();
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Hello" } });
    await userEvent.click(screen.getByTestId("task-check"));
    expect(batchCalls(requests)).toHaveLength(0);
  });
});

describe("pre-submit check and confirm", slow, () => {
  async function fillSms(numbers = "+8613800138000\n+6591234567") {
    await userEvent.click(await screen.findByTestId("task-mode-multiple"));
    fireEvent.change(screen.getByTestId("task-numbers"), { target: { value: numbers } });
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Your code is 1234" } });
    await userEvent.click(within(screen.getByTestId("task-sender-id")).getByRole("combobox"));
    await userEvent.click(
      await screen.findByText("Acme · all countries", { selector: ".ant-select-item-option-content" }),
    );
  }

  it("asks for the missing fields instead of calling the API", async () => {
    const { requests } = stub({});
    renderModal();
    await userEvent.click(await screen.findByTestId("task-check"));
    expect(await screen.findByText("Please enter the phone number")).toBeInTheDocument();
    expect(screen.getByText("Please enter the SMS text")).toBeInTheDocument();
    expect(batchCalls(requests)).toHaveLength(0);
    expect(screen.getByTestId("task-confirm")).toBeDisabled();
    expect(screen.getByTestId("task-confirm-reason")).toHaveTextContent("Please run the check first");
  });

  it("renders the summary with thousands separators and submits mode 2", async () => {
    const { requests } = stub({
      "POST /user/submit/pre": { body: envelope(preResult({ reviewRequired: true })) },
      "POST /batch/submit": {
        body: envelope({
          batch: batch("9007199254740993"),
          numbers: [
            { input: "+8613800138000", result: "accepted", e164: "+8613800138000", countryCode: "CN" },
            { input: "+6591234567", result: "invalid", e164: null, countryCode: null },
          ],
          outcome: null,
          recipient: null,
        }),
      },
    });
    const { onSubmitted } = renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));

    const summary = await screen.findByTestId("task-summary");
    expect(within(summary).getByText("12,345")).toBeInTheDocument();
    expect(within(summary).getByText("12,000")).toBeInTheDocument();
    expect(within(summary).getByText("11,000")).toBeInTheDocument();
    expect(within(summary).getByText("1,234.50")).toBeInTheDocument();
    expect(within(summary).getByText("5,000.00")).toBeInTheDocument();
    expect(within(summary).getByText("0.6845")).toBeInTheDocument();
    expect(within(summary).getByText("1 · GSM-7")).toBeInTheDocument();
    expect(within(summary).getByText("Balance sufficient")).toBeInTheDocument();
    expect(within(summary).getByText("This task will wait for review after it is submitted")).toBeInTheDocument();

    const pre = requests.find((r) => r.url.pathname === "/user/submit/pre");
    expect(pre?.method).toBe("POST");
    expect(pre?.headers.get("Authorization")).toBe("Bearer tok-1");
    expect(pre?.body).toEqual({
      productCode: 3000,
      taskType: 2,
      content: { product: 3000, text: "Your code is 1234", senderId: "Acme" },
      numbers: ["+8613800138000", "+6591234567"],
    });

    const confirm = screen.getByTestId("task-confirm");
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith("9007199254740993"));
    const submit = requests.find((r) => r.url.pathname === "/batch/submit");
    expect(submit?.body).toEqual({
      productCode: 3000,
      taskType: 2,
      submitMode: 2,
      content: { product: 3000, text: "Your code is 1234", senderId: "Acme" },
      numbers: ["+8613800138000", "+6591234567"],
    });
    expect(await screen.findByText("Task submitted: 1 numbers accepted, 1 not sent")).toBeInTheDocument();
  });

  it("screening: says nothing will be sent, and checks and submits task type 1", async () => {
    const { requests } = stub({
      "POST /user/submit/pre": { body: envelope(preResult({})) },
      "POST /batch/submit": {
        body: envelope({ batch: batch("77"), numbers: [], outcome: null, recipient: null }),
      },
    });
    const { onSubmitted } = renderModal();
    await userEvent.click(await screen.findByTestId("task-type-screening"));
    expect(await screen.findByTestId("task-screening-note")).toHaveTextContent("sends nothing");
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(requests.find((r) => r.url.pathname === "/user/submit/pre")?.body).toMatchObject({ taskType: 1 });
    await userEvent.click(screen.getByTestId("task-confirm"));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith("77"));
    expect(requests.find((r) => r.url.pathname === "/batch/submit")?.body).toMatchObject({
      taskType: 1,
      submitMode: 2,
    });
  });

  it("disables confirm with the reason when the balance is short", async () => {
    stub({
      "POST /user/submit/pre": {
        body: envelope(preResult({ sufficient: false, balance: "1000.0000", totalCost: "1234.5000" })),
      },
    });
    renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    const summary = await screen.findByTestId("task-summary");
    expect(within(summary).getByText("Balance insufficient")).toBeInTheDocument();
    expect(screen.getByTestId("task-confirm")).toBeDisabled();
    expect(screen.getByTestId("task-confirm-reason")).toHaveTextContent(
      "Balance insufficient: 1,234.50 needed, balance 1,000.00; please recharge first",
    );
  });

  it("says how many numbers are outside WhatsApp's 24-hour window (not sent, not charged)", async () => {
    stub({
      "POST /user/submit/pre": { body: envelope(preResult({ valid: 10_000, windowClosed: 2_000 })) },
    });
    renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    const summary = await screen.findByTestId("task-summary");
    expect(within(summary).getByTestId("summary-window-closed")).toHaveTextContent("2,000");
    expect(within(summary).getByTestId("summary-window-closed-note")).toHaveTextContent(
      "2,000 numbers have not written to this WhatsApp number in the last 24 hours",
    );
    // Nothing blocks the rest from being sent.
    expect(screen.getByTestId("task-confirm")).toBeEnabled();
  });

  it("disables confirm with the server's reason when authentication does not allow sending", async () => {
    stub({
      "POST /user/submit/pre": {
        body: envelope(preResult({ authenticationAllowed: false, authenticationReason: "identity not authenticated" })),
      },
    });
    renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(screen.getByTestId("task-confirm")).toBeDisabled();
    expect(screen.getByTestId("task-confirm-reason")).toHaveTextContent("Cannot send: identity not authenticated");
  });

  it("asks for a new check once the content changes", async () => {
    stub({ "POST /user/submit/pre": { body: envelope(preResult()) } });
    renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(screen.getByTestId("task-confirm")).toBeEnabled();
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Your code is 9999" } });
    expect(screen.queryByTestId("task-summary")).not.toBeInTheDocument();
    expect(screen.getByTestId("task-confirm")).toBeDisabled();
    expect(screen.getByTestId("task-confirm-reason")).toHaveTextContent("please check again");
  });

  it("shows the server's message when the check fails", async () => {
    stub({ "POST /user/submit/pre": { status: 404, body: envelope(null, 1, "product not found") } });
    renderModal();
    await fillSms();
    await userEvent.click(screen.getByTestId("task-check"));
    expect(await screen.findByTestId("task-error")).toHaveTextContent("The check failed: product not found");
    expect(screen.getByTestId("task-confirm")).toBeDisabled();
  });

  it("shows mode 1's outcome and reports the batch when done", async () => {
    const { requests } = stub({
      "POST /user/submit/pre": { body: envelope(preResult({ total: 1, valid: 1, invalid: 0, duplicate: 0 })) },
      "POST /batch/submit": {
        body: envelope({
          batch: batch("42"),
          numbers: [{ input: "+8613800138000", result: "accepted", e164: "+8613800138000", countryCode: "CN" }],
          outcome: "refused",
          recipient: {
            phone: "+8613800138000",
            countryCode: "CN",
            price: "0.0500",
            sendResult: 2,
            errorCode: "0x0B",
            providerMessageId: null,
          },
        }),
      },
    });
    const { onSubmitted } = renderModal();
    fireEvent.change(await screen.findByTestId("task-number"), { target: { value: "+8613800138000" } });
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Hi" } });
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    await userEvent.click(screen.getByTestId("task-confirm"));

    const outcome = await screen.findByTestId("task-outcome");
    expect(outcome).toHaveTextContent("Not sent: the provider refused the message");
    expect(outcome).toHaveTextContent("0x0B");
    expect(requests.find((r) => r.url.pathname === "/batch/submit")?.body).toMatchObject({
      submitMode: 1,
      number: "+8613800138000",
    });
    expect(onSubmitted).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId("task-done"));
    expect(onSubmitted).toHaveBeenCalledExactlyOnceWith("42");
  });

  it("renders Chinese texts", async () => {
    storage.setLang("zh");
    renderModal();
    expect(await screen.findByText("短信 直发任务")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "你好" } });
    expect(screen.getByTestId("task-segments")).toHaveTextContent("2 个字符 · 1 条 · UCS-2");
  });
});

describe("content of WS and RCS", slow, () => {
  it("builds a WS template with its parameters", () => {
    const r = buildContent(ProductCode.WS, {
      ...emptyDraft(),
      wsType: "template",
      wsTemplate: "order_update",
      wsLanguage: "en_US",
      wsParameters: ["Alice", " 42 "],
    });
    expect(r.content).toEqual({
      product: ProductCode.WS,
      body: { type: "template", name: "order_update", language: "en_US", parameters: ["Alice", "42"], buttons: [] },
    });
    const bad = buildContent(ProductCode.WS, {
      ...emptyDraft(),
      wsType: "template",
      wsTemplate: "Order",
      wsParameters: [""],
    });
    expect(Object.keys(bad.problems ?? {}).sort()).toEqual(["wsLanguage", "wsParameters.0", "wsTemplate"]);
  });

  it("builds an RCS card with suggestions and fallback, and checks its URLs", () => {
    const draft = {
      ...emptyDraft(),
      rcsType: "card" as const,
      rcsTitle: "Sale",
      rcsMediaUrl: "https://cdn.example.com/a.png",
      rcsSuggestions: [
        { type: "url" as const, text: "Open", value: "https://example.com" },
        { type: "dial" as const, text: "Call", value: "+8613800138000" },
      ],
      rcsFallback: "Sale today",
    };
    expect(buildContent(ProductCode.RCS, draft).content).toEqual({
      product: ProductCode.RCS,
      body: {
        type: "card",
        title: "Sale",
        mediaUrl: "https://cdn.example.com/a.png",
        mediaHeight: "MEDIUM",
        orientation: "VERTICAL",
        suggestions: [
          { type: "url", text: "Open", url: "https://example.com" },
          { type: "dial", text: "Call", phoneNumber: "+8613800138000" },
        ],
      },
      fallbackText: "Sale today",
    });
    const bad = buildContent(ProductCode.RCS, {
      ...draft,
      rcsMediaUrl: "http://insecure.example.com/a.png",
      rcsSuggestions: [...draft.rcsSuggestions, ...draft.rcsSuggestions, { type: "dial", text: "", value: "123" }],
    });
    expect(bad.problems).toMatchObject({
      rcsMediaUrl: { key: "rcs.mediaInvalid" },
      rcsSuggestions: { key: "rcs.suggestionsTooMany", params: { max: 4 } },
      "rcsSuggestions.4.text": { key: "rcs.suggestionTextRequired" },
      "rcsSuggestions.4.value": { key: "rcs.phoneInvalid" },
    });
  });

  it("builds an RCS carousel of 2 to 10 cards, its chip list and when to fall back to SMS", () => {
    const card = (title: string) => ({ title, description: "", mediaUrl: "", suggestions: [] });
    const draft = {
      ...emptyDraft(),
      rcsType: "carousel" as const,
      rcsCards: [
        { ...card("Shoes"), mediaUrl: "https://cdn.example.com/s.png" },
        { ...card("Bags"), suggestions: [{ type: "reply" as const, text: "Buy", value: "buy-bags" }] },
      ],
      rcsSuggestions: [{ type: "url" as const, text: "Shop", value: "https://example.com" }],
      rcsFallback: "Sale today",
      rcsFallbackAfter: 900,
    };
    expect(buildContent(ProductCode.RCS, draft).content).toEqual({
      product: ProductCode.RCS,
      body: {
        type: "carousel",
        cardWidth: "MEDIUM",
        cards: [
          { title: "Shoes", mediaUrl: "https://cdn.example.com/s.png", mediaHeight: "MEDIUM", suggestions: [] },
          {
            title: "Bags",
            mediaHeight: "MEDIUM",
            suggestions: [{ type: "reply", text: "Buy", postbackData: "buy-bags" }],
          },
        ],
        suggestions: [{ type: "url", text: "Shop", url: "https://example.com" }],
      },
      fallbackText: "Sale today",
      fallbackAfterSeconds: 900,
    });
    // No fallback text: no fallback delay either.
    expect(buildContent(ProductCode.RCS, { ...draft, rcsFallback: "" }).content).not.toHaveProperty(
      "fallbackAfterSeconds",
    );
    const bad = buildContent(ProductCode.RCS, {
      ...draft,
      rcsCards: [{ ...card(""), mediaUrl: "http://x.example.com/a.png" }],
    });
    expect(bad.problems).toMatchObject({
      rcsCards: { key: "rcs.carouselCards", params: { min: 2, max: 10 } },
      "rcsCards.0.title": { key: "rcs.titleRequired" },
      "rcsCards.0.mediaUrl": { key: "rcs.mediaInvalid" },
    });
  });

  it("sends a WS template with its parameters from the editor", async () => {
    const { requests } = stub({ "POST /user/submit/pre": { body: envelope(preResult({ encoding: null })) } });
    renderModal(ProductCode.WS);
    fireEvent.change(await screen.findByTestId("task-number"), { target: { value: "+8613800138000" } });
    await userEvent.click(screen.getByText("Template"));
    fireEvent.change(screen.getByTestId("task-ws-template"), { target: { value: "order_update" } });
    fireEvent.change(screen.getByTestId("task-ws-language"), { target: { value: "en_US" } });
    await userEvent.click(screen.getByRole("button", { name: "Add" }));
    await userEvent.click(screen.getByTestId("task-check"));
    expect(await screen.findByText("Please enter the value, or remove the parameter")).toBeInTheDocument();
    expect(batchCalls(requests)).toHaveLength(0);
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "Alice" } });
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(batchCalls(requests)[0]?.body).toMatchObject({
      productCode: 2000,
      content: {
        product: 2000,
        body: { type: "template", name: "order_update", language: "en_US", parameters: ["Alice"] },
      },
    });
  });

  it("fills a WS template's name, language and parameter fields from the approved list, and previews its body", async () => {
    const { requests } = stub({
      "/batch/whatsapp/templates": {
        body: envelope([
          {
            name: "order_update",
            language: "en_US",
            category: "UTILITY",
            components: [{ type: "BODY", text: "Hi {{1}}, your order {{2}} has shipped." }],
            bodyParams: 2,
            headerKind: null,
            headerParam: false,
            buttons: [],
          },
        ]),
      },
      "POST /user/submit/pre": { body: envelope(preResult({ encoding: null })) },
    });
    renderModal(ProductCode.WS);
    fireEvent.change(await screen.findByTestId("task-number"), { target: { value: "+8613800138000" } });
    await userEvent.click(screen.getByText("Template"));
    const picker = screen.getByTestId("task-ws-template-pick");
    await userEvent.click(within(picker).getByRole("combobox"));
    await userEvent.click(await screen.findByText("order_update · en_US · Utility"));
    expect(screen.getByTestId("task-ws-template")).toHaveValue("order_update");
    expect(screen.getByTestId("task-ws-language")).toHaveValue("en_US");
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "Alice" } });
    expect(screen.getByTestId("task-ws-template-preview")).toHaveTextContent("Hi Alice, your order {{2}} has shipped.");
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "A-1001" } });
    expect(screen.getByTestId("task-ws-template-preview")).toHaveTextContent(
      "Hi Alice, your order A-1001 has shipped.",
    );
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(batchCalls(requests)[0]?.body).toMatchObject({
      content: { body: { type: "template", name: "order_update", language: "en_US", parameters: ["Alice", "A-1001"] } },
    });
  });

  it("asks for a template's header and button values, checks them, and sends them", async () => {
    const { requests } = stub({
      "/batch/whatsapp/templates": {
        body: envelope([
          {
            name: "spring_sale",
            language: "en_US",
            category: "MARKETING",
            components: [
              { type: "HEADER", format: "IMAGE" },
              { type: "BODY", text: "Hello {{1}}" },
              {
                type: "BUTTONS",
                buttons: [
                  { type: "URL", text: "Shop", url: "https://shop.example/{{1}}" },
                  { type: "QUICK_REPLY", text: "Stop" },
                ],
              },
            ],
            bodyParams: 1,
            headerKind: "IMAGE",
            headerParam: true,
            buttons: [
              { index: 0, subType: "url" },
              { index: 1, subType: "quick_reply" },
            ],
          },
        ]),
      },
      "POST /user/submit/pre": { body: envelope(preResult({ encoding: null })) },
    });
    renderModal(ProductCode.WS);
    fireEvent.change(await screen.findByTestId("task-number"), { target: { value: "+8613800138000" } });
    await userEvent.click(screen.getByText("Template"));
    await userEvent.click(within(screen.getByTestId("task-ws-template-pick")).getByRole("combobox"));
    await userEvent.click(await screen.findByText("spring_sale · en_US · Marketing"));
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "Ana" } });
    expect(screen.getByText("Header image link")).toBeInTheDocument();
    expect(screen.getByText("Button 1: URL suffix")).toBeInTheDocument();
    expect(screen.getByText("Button 2: quick reply payload (optional)")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("task-ws-header"), { target: { value: "http://cdn.example/a.jpg" } });
    await userEvent.click(screen.getByTestId("task-check"));
    expect(await screen.findByText("Please enter an https URL")).toBeInTheDocument();
    expect(screen.getByText("This button's link needs a suffix")).toBeInTheDocument();
    expect(batchCalls(requests)).toHaveLength(0);

    fireEvent.change(screen.getByTestId("task-ws-header"), { target: { value: "https://cdn.example/a.jpg" } });
    fireEvent.change(screen.getByTestId("task-ws-button-0"), { target: { value: "spring?ref=ana" } });
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    expect(batchCalls(requests)[0]?.body).toMatchObject({
      content: {
        body: {
          type: "template",
          name: "spring_sale",
          parameters: ["Ana"],
          header: { type: "image", link: "https://cdn.example/a.jpg" },
          // the quick reply was left empty: not sent
          buttons: [{ index: 0, subType: "url", parameter: "spring?ref=ana" }],
        },
      },
    });
  });

  it("previews the RCS card as it is typed", async () => {
    renderModal(ProductCode.RCS);
    expect(await screen.findByText("The preview appears as you type")).toBeInTheDocument();
    await userEvent.click(screen.getByText("Rich card"));
    fireEvent.change(screen.getByTestId("task-rcs-title"), { target: { value: "Summer sale" } });
    const preview = screen.getByRole("figure", { name: "Preview" });
    expect(within(preview).getByText("Summer sale")).toBeInTheDocument();
  });

  it("edits a carousel card by card, previews it in the phone, and previews the SMS fallback", async () => {
    renderModal(ProductCode.RCS);
    await userEvent.click(await screen.findByTestId("task-rcs-kind-carousel"));
    fireEvent.change(screen.getByTestId("task-rcs-card-0-title"), { target: { value: "Shoes" } });
    await userEvent.click(screen.getByTestId("task-rcs-card-tab-1"));
    fireEvent.change(screen.getByTestId("task-rcs-card-1-title"), { target: { value: "Bags" } });
    const preview = screen.getByRole("figure", { name: "Preview" });
    const carousel = within(preview).getByTestId("preview-carousel");
    expect(within(carousel).getByText("Shoes")).toBeInTheDocument();
    expect(within(carousel).getByText("Bags")).toBeInTheDocument();
    // A third card, then the fallback.
    await userEvent.click(screen.getByTestId("task-rcs-add-card"));
    expect(screen.getByTestId("task-rcs-card-tab-2")).toBeInTheDocument();
    await userEvent.click(within(preview).getByTestId("preview-sms"));
    expect(within(preview).getByText(/No SMS fallback text/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("task-rcs-fallback"), { target: { value: "Sale today at shop.example" } });
    expect(within(preview).getByText("Sale today at shop.example")).toBeInTheDocument();
    expect(screen.getByTestId("task-rcs-fallback-after")).toBeInTheDocument();
  });
});
