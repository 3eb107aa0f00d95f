// Sender IDs: requests, review (admins only; another tenant's row answers like a missing one), and their use by SMS
// batches: only an approved id for every country of the numbers, refused (nothing written, nothing charged) at the
// pre-submit check, at submission, in a file's ingest and through the developer API.
import { randomBytes } from "node:crypto";
import { BatchStatus, type SenderIdRow, SenderIdStatus } from "@switchboard/contracts";
import { ingestBatch } from "@switchboard/domain/batches";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
/** A second tenant, for the "another tenant's row" cases. */
let other: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  other = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

const GB = "+447400123456";
const US = "+12025550123";

function request(c: Account, senderId: string, countryCode?: string | null, lang: "en" | "zh" = "en") {
  return post<SenderIdRow>(t, "/sender-id/request", c.token, { senderId, countryCode, note: "our brand" }, { lang });
}

/** A sender id the admin approved for the customer. */
async function approved(c: Account, senderId: string, countryCode: string | null) {
  const asked = await request(c, senderId, countryCode);
  expect(asked.body.code, asked.body.message).toBe(0);
  const res = await post<SenderIdRow>(t, "/sender-id/approve", w.admin.token, { id: asked.body.data.id });
  expect(res.body.data.status).toBe(SenderIdStatus.APPROVED);
  return res.body.data;
}

const sms = (senderId?: string) => ({
  product: 3000,
  text: "Your code is 1234",
  ...(senderId === undefined ? {} : { senderId }),
});

async function nothingWritten(c: Account, balance: bigint) {
  expect(await fx.batchCount(c.id)).toBe(0);
  expect(await fx.balance(c.id)).toBe(balance);
}

describe("requests", () => {
  it("a customer requests per country or for every country and lists its own; the kind follows the text", async () => {
    const c = await fx.customer(w);
    const alpha = await request(c, "Acme", "gb");
    expect(alpha.status).toBe(200);
    expect(alpha.body.data).toMatchObject({
      userId: c.id,
      senderId: "Acme",
      countryCode: "GB",
      kind: "alphanumeric",
      status: SenderIdStatus.REQUESTED,
      note: "our brand",
      reason: null,
      reviewerId: null,
    });
    // A number without "+" but with its country code is the same id as with it.
    const intl = await request(c, "447700900123", null);
    expect(intl.body.data).toMatchObject({ senderId: "+447700900123", countryCode: null, kind: "international" });
    const short = await request(c, "72727", "US");
    expect(short.body.data).toMatchObject({ senderId: "72727", kind: "short_code" });

    const again = await request(c, "+447700900123", null);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      "sender ID +447700900123 (all countries) is already requested and waits for review",
    );

    const list = await get<{ list: SenderIdRow[]; total: number }>(t, "/sender-id/list", c.token);
    expect(list.body.data.total).toBe(3);
    expect(list.body.data.list.map((r) => r.senderId).sort()).toEqual(["+447700900123", "72727", "Acme"]);
    const onlyAll = await get<{ list: SenderIdRow[] }>(t, "/sender-id/list", c.token, { countryCode: "ALL" });
    expect(onlyAll.body.data.list.map((r) => r.senderId)).toEqual(["+447700900123"]);
  });

  it("refuses a national number, a too long name and an unknown country, in the request's language", async () => {
    const c = await fx.customer(w);
    const national = await request(c, "07700900123", "GB");
    expect(national.status).toBe(400);
    expect(national.body.message).toContain("full number with its country code");
    const zh = await request(c, "07700900123", "GB", "zh");
    expect(zh.body.message).toContain("带国家代码的完整号码");
    expect((await request(c, "TWELVECHARSX", "GB")).status).toBe(400);
    const unknown = await request(c, "Acme", "ZZ");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("unknown country code ZZ");
    expect(await t.prisma.senderId.count({ where: { userId: c.id } })).toBe(0);
  });

  it("a customer withdraws its own request; another customer's answers 404", async () => {
    const c = await fx.customer(w);
    const c2 = await fx.customer(w);
    const asked = await request(c, "Shop", "GB");
    const foreign = await post(t, "/sender-id/withdraw", c2.token, { id: asked.body.data.id });
    expect(foreign.status).toBe(404);
    const mine = await post(t, "/sender-id/withdraw", c.token, { id: asked.body.data.id });
    expect(mine.status).toBe(200);
    expect(await t.prisma.senderId.count({ where: { userId: c.id } })).toBe(0);
  });
});

describe("review", () => {
  it("customers and agents cannot approve (403); agents see their customers' requests only", async () => {
    const c = await fx.customer(w);
    const asked = await request(c, "Bakery", "GB");
    const id = asked.body.data.id;
    const byCustomer = await post(t, "/sender-id/approve", c.token, { id });
    expect(byCustomer.status).toBe(403);
    const byAgent = await post(t, "/sender-id/approve", w.agent.token, { id });
    expect(byAgent.status).toBe(403);
    expect((await post(t, "/sender-id/reject", c.token, { id, reason: "no" })).status).toBe(403);

    const mine = await get<{ list: SenderIdRow[] }>(t, "/sender-id/list", w.agent.token, { userId: String(c.id) });
    expect(mine.body.data.list.map((r) => r.id)).toEqual([id]);
    const notMine = await get<{ list: SenderIdRow[] }>(t, "/sender-id/list", w.otherAgent.token, {
      userId: String(c.id),
    });
    expect(notMine.body.data.list).toEqual([]);
    expect((await t.prisma.senderId.findUniqueOrThrow({ where: { id } })).status).toBe(SenderIdStatus.REQUESTED);
  });

  it("another tenant's request answers exactly like a missing one (404), and is left alone", async () => {
    const c = await fx.customer(w);
    const asked = await request(c, "Florist", "GB");
    const id = asked.body.data.id;
    const foreign = await post(t, "/sender-id/approve", other.admin.token, { id });
    const missing = await post(t, "/sender-id/approve", other.admin.token, { id: 2_000_000_000 });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.message).toBe("sender ID not found");
    const rejectForeign = await post(t, "/sender-id/reject", other.admin.token, { id, reason: "x" });
    expect(rejectForeign.status).toBe(404);
    const list = await get<{ list: SenderIdRow[] }>(t, "/sender-id/list", other.admin.token, {
      userId: String(c.id),
    });
    expect(list.body.data.list).toEqual([]);
    expect((await t.prisma.senderId.findUniqueOrThrow({ where: { id } })).status).toBe(SenderIdStatus.REQUESTED);
  });

  it("an admin approves once, rejects with a reason, revokes; a rejected id may be requested again", async () => {
    const c = await fx.customer(w);
    const a = await request(c, "Garage", "GB");
    const ok = await post<SenderIdRow>(t, "/sender-id/approve", w.admin.token, { id: a.body.data.id });
    expect(ok.body.data).toMatchObject({ status: SenderIdStatus.APPROVED, reviewerId: w.admin.id, reason: null });
    const twice = await post(t, "/sender-id/approve", w.admin.token, { id: a.body.data.id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("this request was already reviewed or withdrawn");
    const requestedAgain = await request(c, "Garage", "GB");
    expect(requestedAgain.status).toBe(409);
    expect(requestedAgain.body.message).toBe("sender ID Garage (GB) is already approved");

    const b = await request(c, "BANK", "GB");
    const rejected = await post<SenderIdRow>(t, "/sender-id/reject", w.admin.token, {
      id: b.body.data.id,
      reason: "looks like a bank",
    });
    expect(rejected.body.data).toMatchObject({ status: SenderIdStatus.REJECTED, reason: "looks like a bank" });
    // The customer sees the decision and why, not who made it.
    const seen = await get<{ list: SenderIdRow[] }>(t, "/sender-id/list", c.token, { status: "3" });
    expect(seen.body.data.list).toEqual([
      expect.objectContaining({ senderId: "BANK", reason: "looks like a bank", reviewerId: null }),
    ]);
    const reopened = await request(c, "BANK", "GB");
    expect(reopened.body.data).toMatchObject({ id: b.body.data.id, status: SenderIdStatus.REQUESTED, reason: null });

    const revoked = await post<SenderIdRow>(t, "/sender-id/revoke", w.admin.token, {
      id: a.body.data.id,
      reason: "complaints",
    });
    expect(revoked.body.data).toMatchObject({ status: SenderIdStatus.REVOKED, reason: "complaints" });
    const revokeWaiting = await post(t, "/sender-id/revoke", w.admin.token, { id: b.body.data.id, reason: "x" });
    expect(revokeWaiting.status).toBe(409);
  });

  it("parallel decisions on one request: exactly one applies", async () => {
    const c = await fx.customer(w);
    const a = await request(c, "Racer", "GB");
    const id = a.body.data.id;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => post(t, "/sender-id/approve", w.admin.token, { id })),
      ...Array.from({ length: 5 }, () => post(t, "/sender-id/reject", w.admin.token, { id, reason: "no" })),
    ]);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(9);
  });
});

describe("use in SMS batches", () => {
  it("an approved id goes out for its country; a number of another country refuses the whole batch", async () => {
    const c = await fx.customer(w, "10.00");
    await approved(c, "Acme", "GB");
    const ok = await post<{ batch: { id: string; status: number; senderId: string } }>(
      t,
      "/batch/submit",
      c.token,
      multiple(w, [GB], { content: sms("Acme") }),
    );
    expect(ok.status, ok.body.message).toBe(200);
    expect(ok.body.data.batch).toMatchObject({ status: BatchStatus.PENDING_SEND, senderId: "Acme" });
    const balance = await fx.balance(c.id);
    const batches = await fx.batchCount(c.id);

    const mixed = await post(t, "/batch/submit", c.token, multiple(w, [GB, US], { content: sms("Acme") }));
    expect(mixed.status).toBe(403);
    expect(mixed.body.message).toBe(
      "sender ID Acme is not approved for US: request it on the Sender IDs page and wait for approval, or send " +
        "without a sender ID (the channel's default)",
    );
    const zh = await post(t, "/batch/submit", c.token, multiple(w, [US], { content: sms("Acme") }), { lang: "zh" });
    expect(zh.body.message).toContain("发送方 ID Acme 未获准用于 US");
    expect(await fx.batchCount(c.id)).toBe(batches);
    expect(await fx.balance(c.id)).toBe(balance);
    // Another spelling is another id.
    expect((await post(t, "/batch/submit", c.token, multiple(w, [GB], { content: sms("ACME") }))).status).toBe(403);
    // Without a sender id the channel's default goes, as before.
    const plain = await post(t, "/batch/submit", c.token, multiple(w, [GB, US], { content: sms() }));
    expect(plain.status).toBe(200);
  });

  it("the pre-submit check refuses the same way, and passes what the submission would accept", async () => {
    const c = await fx.customer(w, "10.00");
    await approved(c, "Acme", "GB");
    const body = (numbers: string[], senderId: string) => ({
      productId: w.productId,
      taskType: 2,
      numbers,
      content: sms(senderId),
    });
    const pass = await post<{ valid: number }>(t, "/user/submit/pre", c.token, body([GB], "Acme"));
    expect(pass.status).toBe(200);
    expect(pass.body.data.valid).toBe(1);
    const refused = await post(t, "/user/submit/pre", c.token, body([GB, US], "Acme"));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("sender ID Acme is not approved for US");
    // The GET form (numbers and content in the query string) too.
    const viaGet = await get(t, "/user/submit/pre", c.token, {
      productId: String(w.productId),
      taskType: "2",
      numbers: US,
      content: JSON.stringify(sms("Acme")),
    });
    expect(viaGet.status).toBe(403);
    await nothingWrittenSince(c);
  });

  it("a rejected id and another customer's approved id are refused at submission and at the pre-submit check", async () => {
    const c = await fx.customer(w, "10.00");
    const owner = await fx.customer(w, "10.00");
    await approved(owner, "Owned", "GB");
    const asked = await request(c, "Refused", "GB");
    await post(t, "/sender-id/reject", w.admin.token, { id: asked.body.data.id, reason: "no" });
    for (const senderId of ["Refused", "Owned"]) {
      const submit = await post(t, "/batch/submit", c.token, multiple(w, [GB], { content: sms(senderId) }));
      expect(submit.status, senderId).toBe(403);
      expect(submit.body.message).toContain(`sender ID ${senderId} is not approved for GB`);
      const single = await post(t, "/batch/submit", c.token, {
        productId: w.productId,
        taskType: 2,
        submitMode: 1,
        number: GB,
        content: sms(senderId),
      });
      expect(single.status, senderId).toBe(403);
      const pre = await post(t, "/user/submit/pre", c.token, {
        productId: w.productId,
        taskType: 2,
        numbers: [GB],
        content: sms(senderId),
      });
      expect(pre.status, senderId).toBe(403);
    }
    await nothingWritten(c, 100_000n);
  });

  it("an approval for every country covers any country; a number with or without + is the same id", async () => {
    const c = await fx.customer(w, "10.00");
    await approved(c, "+447700900123", null);
    const res = await post<{ batch: { senderId: string } }>(
      t,
      "/batch/submit",
      c.token,
      multiple(w, [GB, US], { content: sms("447700900123") }),
    );
    expect(res.status).toBe(200);
  });

  it("a revoked id is refused for later batches", async () => {
    const c = await fx.customer(w, "10.00");
    const row = await approved(c, "Later", null);
    await post(t, "/sender-id/revoke", w.admin.token, { id: row.id, reason: "complaints" });
    const res = await post(t, "/batch/submit", c.token, multiple(w, [GB], { content: sms("Later") }));
    expect(res.status).toBe(403);
    await nothingWritten(c, 100_000n);
  });

  it("a file batch: refused at once without any approval; the ingest refuses numbers of a country not approved", async () => {
    const c = await fx.customer(w, "10.00");
    const upload = async (senderId: string, numbers: string[]) => {
      const form = multipart(
        { productId: String(w.productId), taskType: "2", content: JSON.stringify(sms(senderId)) },
        [{ name: "numbers.csv", data: Buffer.from(`${numbers.join("\n")}\n`), field: "file" }],
      );
      const res = await t.app.inject({
        method: "POST",
        url: "/batch/submit/file",
        headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang: "en" },
        payload: form.payload,
      });
      return { status: res.statusCode, body: res.json() as { message: string; data: { batch: { id: string } } } };
    };
    const none = await upload("Nobody", [GB]);
    expect(none.status).toBe(403);
    expect(none.body.message).toContain("sender ID Nobody is not approved for any country");
    await nothingWritten(c, 100_000n);

    await approved(c, "Files", "GB");
    const created = await upload("Files", [GB, US]);
    expect(created.status).toBe(200);
    const id = created.body.data.batch.id;
    const deps = {
      prisma: t.prisma,
      storage: t.app.storage,
      jobs: { dispatch: async () => {} },
      log: { info: () => {}, warn: () => {} },
    };
    expect(await ingestBatch(deps, { batchId: id })).toBe("refused");
    const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(id) } });
    expect(batch).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, cost: 0n });
    expect(await t.prisma.recipient.count({ where: { batchId: BigInt(id) } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(100_000n);
    const detail = await get<{ reason: string }>(t, "/batch/detail", c.token, { id });
    expect(detail.body.data.reason).toContain("sender ID Files is not approved for US");
  });

  it("screening sends nothing, so its sender id is not checked", async () => {
    const c = await fx.customer(w, "10.00");
    const pre = await post(t, "/user/submit/pre", c.token, {
      productId: w.productId,
      taskType: 1,
      numbers: [GB],
      content: sms("Unchecked"),
    });
    expect(pre.status).not.toBe(403);
  });
});

describe("demo", () => {
  it("the demo customer has the demo's sender id approved for every country", async () => {
    const demo = await t.prisma.user.findFirstOrThrow({ where: { username: "customer", tenant: { code: "demo" } } });
    const rows = await t.prisma.senderId.findMany({ where: { userId: demo.id } });
    expect(rows).toEqual([
      expect.objectContaining({ senderId: "Switchboard", countryCode: null, kind: "alphanumeric", status: 2 }),
    ]);
  });
});

describe("developer API", () => {
  async function developer() {
    const c = await fx.customer(w, "10.00");
    const key = `sk_${randomBytes(32).toString("base64url")}`;
    await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
    return { ...c, key };
  }

  it("GET /v1/sender-ids lists the key's customer's ids; /v1/messages refuses an id not approved", async () => {
    const d = await developer();
    const someoneElse = await fx.customer(w);
    await approved(d, "ApiCo", "GB");
    await request(d, "Pending", null);
    await approved(someoneElse, "NotYours", null);
    const headers = { authorization: `Bearer ${d.key}` };
    const all = await get<{ list: Array<{ senderId: string; status: number }>; total: number }>(
      t,
      "/v1/sender-ids",
      undefined,
      {},
      { headers },
    );
    expect(all.status).toBe(200);
    expect(all.body.data.list.map((r) => r.senderId).sort()).toEqual(["ApiCo", "Pending"]);
    const usable = await get<{ list: Array<{ senderId: string }> }>(
      t,
      "/v1/sender-ids",
      undefined,
      { status: "2", countryCode: "GB" },
      { headers },
    );
    expect(usable.body.data.list.map((r) => r.senderId)).toEqual(["ApiCo"]);
    expect((await get(t, "/v1/sender-ids", undefined)).status).toBe(401);

    const sent = await post(t, "/v1/messages", undefined, multiple(w, [GB], { content: sms("ApiCo") }), { headers });
    expect(sent.status).toBe(200);
    const refused = await post(t, "/v1/messages", undefined, multiple(w, [GB], { content: sms("NotYours") }), {
      headers,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("sender ID NotYours is not approved for GB");
  });
});

async function nothingWrittenSince(c: Account) {
  expect(await fx.batchCount(c.id)).toBe(0);
}
