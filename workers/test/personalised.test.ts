// Personalised campaigns end to end (docs/batches.md, "Personalised campaigns"): a 10,000-row CSV with two
// variables goes through the real API (pre-submit check, file submission), the workers (ingest, dispatch) and
// the SMSC simulator, which keeps what it received. Each message carries its own row's values; a row missing a
// value is rejected (reason 6) and never charged; the charge is the exact sum of the recipients' own prices
// (rows with a long value take two segments and pay two).

import type { SimulatorSubmit } from "@switchboard/channels/simulators";
import { BalanceLogType, BatchStatus, countSegments, RejectReason, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../apps/api/src/app";
import { multipart } from "../../apps/api/test/accounts";
import { type DemoPlatform, startDemoPlatform } from "./demo-platform";
import { phoneNumbers, waitFor, waitSettled } from "./helpers";

let platform: DemoPlatform;
let prisma: PrismaClient;
let api: App;
let token: string;
let submits: SimulatorSubmit[];

const ROWS = 10_000;
const TEXT = "Hi {{Name}}, your code is {{ code }}.";
/** Every 97th row has a long name (two segments once filled); row 5 has no code. */
const LONG = "L".repeat(160);
const nameOf = (i: number) => (i % 97 === 0 ? `${LONG}${i}` : `Name${i}`);
const MISSING_ROW = 5;

beforeAll(async () => {
  platform = await startDemoPlatform("pers");
  ({ prisma, api, token, submits } = platform);
});
afterAll(() => platform?.close());

function fileForm(url: string, csv: string, text = TEXT, lang = "en") {
  const form = multipart(
    { productCode: "3000", taskType: "2", content: JSON.stringify({ product: 3000, text }) },
    [{ name: "campaign.csv", data: Buffer.from(csv), field: "file" }],
    "file",
  );
  return api.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${token}`, "content-type": form.contentType, lang },
    payload: form.payload,
  });
}

/** The texts the simulator received per number (E.164), long messages joined in their parts' order. */
function receivedTexts(): Map<string, string> {
  const parts = new Map<string, Array<{ seq: number; text: string }>>();
  for (const s of submits) {
    if (s.status !== 0) continue;
    const concat = s.udh.find((ie) => ie[0] === 0x00);
    const seq = concat ? (concat[4] as number) : (s.sar?.seq ?? 1);
    const to = `+${s.destination.replace(/^\+/, "")}`;
    const list = parts.get(to) ?? [];
    list.push({ seq, text: s.text });
    parts.set(to, list);
  }
  const texts = new Map<string, string>();
  for (const [to, list] of parts) {
    texts.set(
      to,
      list
        .sort((a, b) => a.seq - b.seq)
        .map((p) => p.text)
        .join(""),
    );
  }
  return texts;
}

describe("personalised campaign: a 10,000-row CSV with two variables", () => {
  const phones = phoneNumbers(ROWS);
  const csv = `Phone,Name,Code\n${phones
    .map((p, i) => `${p},${nameOf(i)},${i === MISSING_ROW ? "" : `C${i}`}`)
    .join("\n")}\n`;
  const expected = (i: number) => TEXT.replace("{{Name}}", nameOf(i)).replace("{{ code }}", `C${i}`);

  it("the pre-submit check names the variables and prices each row as its own message", async () => {
    const res = await fileForm("/user/submit/pre/file", csv);
    expect(res.json().code, res.body).toBe(0);
    const pre = res.json().data;
    expect(pre.variables).toEqual(["Name", "Code"]);
    expect(pre.unfilled).toBe(1);
    expect(pre.notServed).toBe(0);
    expect(pre.rejected).toEqual([{ raw: phones[MISSING_ROW], reason: RejectReason.MISSING_VARIABLE }]);
    expect(pre.valid).toBe(ROWS - 1);
    let total = 0;
    let max = 0;
    let cost = 0n;
    const price = { CN: 350n, US: 80n };
    phones.forEach((p, i) => {
      if (i === MISSING_ROW) return;
      const segments = countSegments(expected(i)).segments;
      total += segments;
      max = Math.max(max, segments);
      cost += price[p.startsWith("+86") ? "CN" : "US"] * BigInt(segments);
    });
    expect(max).toBe(2);
    expect(pre.segmentsMax).toBe(max);
    expect(pre.segmentsTotal).toBe(total);
    expect(pre.totalCost).toBe(`${cost / 10_000n}.${String(cost % 10_000n).padStart(4, "0")}`);
  }, 60_000);

  it("each message the SMSC received carries its own row's values; the missing row is rejected uncharged", async () => {
    const user = await prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    const res = await fileForm("/batch/submit/file", csv);
    expect(res.json().code, res.body).toBe(0);
    const batchId = res.json().data.batch.id as string;
    const done = await waitSettled(prisma, batchId, 180_000);
    expect(done).toMatchObject({
      status: BatchStatus.SEND_FINISHED,
      totalCount: ROWS,
      validCount: ROWS - 1,
      unfilledCount: 1,
      successCount: ROWS - 1,
      segments: 2,
    });

    const texts = receivedTexts();
    let checked = 0;
    phones.forEach((p, i) => {
      if (i === MISSING_ROW) {
        expect(texts.has(p)).toBe(false);
        return;
      }
      expect(texts.get(p), p).toBe(expected(i));
      checked += 1;
    });
    expect(checked).toBe(ROWS - 1);

    const rejected = await prisma.rejectedNumber.findMany({ where: { batchId: BigInt(batchId) } });
    expect(rejected).toEqual([
      expect.objectContaining({ raw: phones[MISSING_ROW], reason: RejectReason.MISSING_VARIABLE }),
    ]);

    // The charge is the exact sum of the recipients' own prices; a long row pays its two segments.
    const recipients = await prisma.recipient.findMany({
      where: { batchId: BigInt(batchId) },
      select: { phone: true, price: true, segments: true, vars: true, sendResult: true },
    });
    const sum = recipients.reduce((s, r) => s + r.price, 0n);
    expect(done.cost).toBe(sum);
    expect(done.refunded).toBe(0n);
    const consume = await prisma.balanceLog.findMany({
      where: { batchId: BigInt(batchId), userId: user.id, type: BalanceLogType.CONSUME },
    });
    expect(consume.map((c) => -c.amount)).toEqual([sum]);
    // Row 194: a Chinese number (350 a segment) with a long name.
    const long = recipients.find((r) => r.phone === phones[194]);
    expect(long).toMatchObject({ segments: 2, price: 700n, vars: { name: nameOf(194), code: "C194" } });
    expect(recipients.every((r) => r.sendResult === SendResult.SUCCESS)).toBe(true);
  }, 240_000);

  it("a placeholder naming a column the file lacks is refused at submission, naming it (en and zh)", async () => {
    const text = "Hi {{nickname}}";
    const en = await fileForm("/batch/submit/file", csv, text);
    expect(en.statusCode).toBe(400);
    expect(en.json().message).toContain("nickname");
    expect(en.json().message).toBe("the file has no column named nickname to fill {{nickname}}");
    const zh = await fileForm("/user/submit/pre/file", "phone\n+12025550181\n", text, "zh");
    expect(zh.statusCode).toBe(400);
    expect(zh.json().message).toBe("文件中没有名为 nickname 的列，无法填写 {{nickname}}");
    // Numbers typed in the request have no columns at all.
    const direct = await api.inject({
      method: "POST",
      url: "/batch/submit",
      headers: { authorization: `Bearer ${token}`, lang: "en" },
      payload: {
        productCode: 3000,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025550181"],
        content: { product: 3000, text },
      },
    });
    expect(direct.statusCode).toBe(400);
    expect(direct.json().message).toContain("{{nickname}}");
    expect(await prisma.messageBatch.count({ where: { content: { path: ["text"], equals: text } } })).toBe(0);
    // Their pre-submit check says so too, in the reader's language.
    const pre = await api.inject({
      method: "POST",
      url: "/user/submit/pre",
      headers: { authorization: `Bearer ${token}`, lang: "zh" },
      payload: { productCode: 3000, numbers: ["+12025550181"], content: { product: 3000, text } },
    });
    expect(pre.statusCode).toBe(400);
    expect(pre.json().message).toBe("内容使用了变量 {{nickname}}：变量只能由上传文件的列填写");
  });
});

describe("personalised RCS with an SMS fallback text", () => {
  it("fills card and fallback per row, prices each row by the larger of RCS and its own fallback's segments", async () => {
    const long = "x".repeat(600);
    const rows = [
      ["+12025550181", "Li", "short"],
      ["+12025550182", "Wu", long],
    ];
    const csv = `mobile,name,note\n${rows.map((r) => r.join(",")).join("\n")}\n`;
    const content = {
      product: 1000,
      body: { type: "card", title: "Hello {{name}}", description: "For {{name}}", suggestions: [] },
      fallbackText: "Hi {{name}}: {{note}}",
    };
    const form = multipart(
      {
        productCode: "1000",
        taskType: "2",
        content: JSON.stringify(content),
        // Made now, sent tomorrow: the prices are what is looked at.
        scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      [{ name: "rcs.csv", data: Buffer.from(csv), field: "file" }],
      "file",
    );
    const res = await api.inject({
      method: "POST",
      url: "/batch/submit/file",
      headers: { authorization: `Bearer ${token}`, "content-type": form.contentType, lang: "en" },
      payload: form.payload,
    });
    expect(res.json().code, res.body).toBe(0);
    const batchId = BigInt(res.json().data.batch.id as string);
    const batch = await waitFor("the ingest", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
      return b.filePath === null ? b : undefined;
    });
    const recipients = await prisma.recipient.findMany({ where: { batchId }, orderBy: { id: "asc" } });
    // US: RCS 300 a message, SMS 80 a segment; the long note makes its fallback 5 segments (400).
    const fallbackSegments = countSegments(`Hi Wu: ${long}`).segments;
    expect(recipients.map((r) => [r.phone, r.segments, r.primaryPrice, r.fallbackPrice, r.price])).toEqual([
      ["+12025550181", 1, 300n, 80n, 300n],
      ["+12025550182", 1, 300n, 80n * BigInt(fallbackSegments), 80n * BigInt(fallbackSegments)],
    ]);
    expect(recipients[1]?.vars).toEqual({ name: "Wu", note: long });
    expect(batch.cost).toBe(recipients.reduce((sum, r) => sum + r.price, 0n));
  });
});
