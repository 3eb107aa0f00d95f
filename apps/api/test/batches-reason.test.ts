// A batch's reason (rejection, termination, failure) is stored once, as a message key with parameters or as a
// person's own text, and read in each reader's language: lists, detail and the developer API's status.
import { randomBytes } from "node:crypto";
import {
  BATCH_REASON_STORED_MAX,
  BATCH_REASON_TEXT_MAX,
  BatchStatus,
  batchReasonKey,
  decodeBatchReason,
  encodeBatchReason,
} from "@switchboard/contracts";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world({ reviewMode: 1 });
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

async function batchOf(c: Account): Promise<string> {
  const res = await post<{ batch: { id: string } }>(t, "/batch/submit", c.token, multiple(w, ["+12025550123"]));
  expect(res.status).toBe(200);
  return res.body.data.batch.id;
}

/** The reason as each screen and the developer API show it, in one language. */
async function readings(c: Account & { key: string }, id: string, lang: "zh" | "en") {
  const detail = await get<{ reason: string | null }>(t, "/batch/detail", c.token, { id }, { lang });
  const list = await get<{ list: { id: string; reason: string | null }[] }>(t, "/batch/list", c.token, {}, { lang });
  const v1 = await get<{ reason: string | null }>(
    t,
    `/v1/batches/${id}`,
    undefined,
    {},
    {
      lang,
      headers: { "x-api-key": c.key },
    },
  );
  return [detail.body.data.reason, list.body.data.list.find((b) => b.id === id)?.reason, v1.body.data.reason];
}

async function developer() {
  const c = await fx.customer(w, "10.00");
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
  return { ...c, key };
}

describe("batch reasons", () => {
  it("a dead channel's failure reason reads in zh and en everywhere", async () => {
    const c = await developer();
    const id = await batchOf(c);
    // What the workers store when a channel stays unavailable (workers/src/jobs/finish-batch.ts, failureReason).
    await t.prisma.messageBatch.update({
      where: { id: BigInt(id) },
      data: {
        status: BatchStatus.SEND_FAILED,
        reason: encodeBatchReason({ key: "batch.failure.channel_unavailable" }),
      },
    });
    expect(await readings(c, id, "en")).toEqual(Array(3).fill("the channel stayed unavailable after every retry"));
    expect(await readings(c, id, "zh")).toEqual(Array(3).fill("通道多次重试后仍不可用"));
  });

  it("a reviewer's text comes back verbatim in every language, even when it looks like a message", async () => {
    const c = await developer();
    const id = await batchOf(c);
    const words = '内容违规 {"key":"ok"} batch.ingest_failed {invalid}';
    const rejected = await post<{ status: number; reason: string }>(
      t,
      "/batch/review/reject",
      w.admin.token,
      { id, reason: words },
      { lang: "zh" },
    );
    expect(rejected.body.data).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, reason: words });
    expect(await readings(c, id, "en")).toEqual([words, words, words]);
    expect(await readings(c, id, "zh")).toEqual([words, words, words]);
    const stored = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(id) } });
    expect(stored.reason).not.toBe(words);
    expect(batchReasonKey(stored.reason)).toBeNull();
  });

  it("a reviewer may write up to the limit, which fits the column", async () => {
    const c = await fx.customer(w, "10.00");
    const id = await batchOf(c);
    const longest = "长".repeat(BATCH_REASON_TEXT_MAX);
    const tooLong = await post(t, "/batch/review/reject", w.admin.token, { id, reason: `${longest}x` });
    expect(tooLong.status).toBe(400);
    const ok = await post<{ reason: string }>(t, "/batch/review/reject", w.admin.token, { id, reason: longest });
    expect(ok.status).toBe(200);
    expect(ok.body.data.reason).toBe(longest);
  });

  it("a termination's text reads verbatim", async () => {
    const c = await developer();
    const id = await batchOf(c);
    await post(t, "/batch/review/pass", w.admin.token, { id });
    await fx.setStatus(id, BatchStatus.SENDING);
    const stopped = await post<{ reason: string }>(t, "/batch/terminate", w.admin.token, { id, reason: "complaint" });
    expect(stopped.body.data.reason).toBe("complaint");
    expect(await readings(c, id, "zh")).toEqual(["complaint", "complaint", "complaint"]);
  });

  it("old rows (translated text, machine codes) read unchanged", async () => {
    const c = await developer();
    for (const old of ["余额不足：当前余额 0.0100", "channel_unavailable", '{"key":"no.such.key"}', "{broken"]) {
      const id = await batchOf(c);
      await t.prisma.messageBatch.update({
        where: { id: BigInt(id) },
        data: { status: BatchStatus.REVIEW_REJECTED, reason: old },
      });
      expect(await readings(c, id, "en")).toEqual([old, old, old]);
    }
  });
});

describe("encodeBatchReason / decodeBatchReason", () => {
  it("round-trips a message with parameters, translated per language", () => {
    const stored = encodeBatchReason({ key: "batch.file_line_too_long", params: { line: 7 } });
    expect(JSON.parse(stored)).toEqual({ key: "batch.file_line_too_long", params: { line: 7 } });
    expect(decodeBatchReason(stored, "en")).toBe("line 7 is too long");
    expect(decodeBatchReason(stored, "zh")).toBe("第 7 行过长");
    expect(batchReasonKey(stored)).toBe("batch.file_line_too_long");
  });

  it("a parameter that is itself a message key is translated too", () => {
    const stored = encodeBatchReason({
      key: "batch.number_not_served",
      params: { country: "FR", reason: "price.country_not_served" },
    });
    expect(decodeBatchReason(stored, "en")).toMatch(/^the number's country \(FR\) cannot be sent to: (?!price\.)/);
  });

  it("always fits the column: long parameters are cut, then dropped", () => {
    const cut = encodeBatchReason({ key: "batch.file_line_too_long", params: { line: "9".repeat(1000) } });
    expect(cut.length).toBeLessThanOrEqual(BATCH_REASON_STORED_MAX);
    expect(decodeBatchReason(cut, "en")).toBe(`line ${"9".repeat(100)} is too long`);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, "x".repeat(100)]));
    const dropped = encodeBatchReason({ key: "batch.ingest_failed", params: many });
    expect(dropped).toBe('{"key":"batch.ingest_failed"}');
    expect(encodeBatchReason({ text: "y".repeat(600) }).length).toBe(BATCH_REASON_STORED_MAX);
  });

  it("null stays null", () => {
    expect(decodeBatchReason(null, "zh")).toBeNull();
    expect(batchReasonKey(null)).toBeNull();
  });
});
