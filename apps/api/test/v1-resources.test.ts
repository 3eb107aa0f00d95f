// The developer API's newer resources through the SDK (issue 18), as a customer's system calls them: a batch's
// send time (POST /v1/batches/{id}/schedule, the customer app's rules), the customer's products with whether each
// can send, and sender id requests and withdrawals. Each route needs its key scope (send, read, manage), another
// customer's rows answer 404 like missing ones, and refusals come in the client's language.
import type { AddressInfo } from "node:net";
import { type ApiKeyCreated, BatchStatus, SenderIdStatus } from "@switchboard/contracts";
import { createSwitchboardClient } from "@switchboard/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

/** A customer with the API on and a named key with these scopes (the developer page's /user/api-keys). */
async function developer(scopes: string[]): Promise<Account & { key: string }> {
  const c = await fx.customer(w, "10.00");
  await t.prisma.user.update({ where: { id: c.id }, data: { apiEnabled: true } });
  const created = await post<ApiKeyCreated>(t, "/user/api-keys", c.token, { name: "server", scopes });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { ...c, key: created.body.data.secretKey };
}

/** Another key of the same customer, with other scopes. */
async function otherKey(c: Account, scopes: string[]): Promise<string> {
  const created = await post<ApiKeyCreated>(t, "/user/api-keys", c.token, { name: `k-${scopes.join("-")}`, scopes });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.data.secretKey;
}

const client = (apiKey: string, lang: "en" | "zh" = "en") => createSwitchboardClient({ baseUrl, apiKey, lang });
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

async function scheduledBatch(key: string, numbers: string[]) {
  const sent = await client(key).POST("/v1/messages", {
    body: {
      productId: w.productId,
      taskType: 2,
      submitMode: 2,
      numbers,
      content: { product: 3000, text: "Tomorrow's offer" },
      scheduledAt: inHours(24),
    },
  });
  expect(sent.response.status, JSON.stringify(sent.error)).toBe(200);
  const batch = sent.data!.data.batch;
  expect(batch.status).toBe(BatchStatus.PENDING_SEND);
  return batch;
}

describe("POST /v1/batches/{id}/schedule", () => {
  it("moves a pending batch's send time or clears it, by the customer app's rules; others' batches are 404", async () => {
    const a = await developer(["send", "read"]);
    const b = await developer(["send", "read"]);
    const batch = await scheduledBatch(a.key, ["+12025550141", "+12025550142"]);
    const theirs = await scheduledBatch(b.key, ["+12025550143"]);
    const sb = client(a.key);
    const path = { params: { path: { id: batch.id } } };

    const later = inHours(48);
    const moved = await sb.POST("/v1/batches/{id}/schedule", { ...path, body: { scheduledAt: later } });
    expect(moved.response.status, JSON.stringify(moved.error)).toBe(200);
    expect(moved.data?.data).toMatchObject({ id: batch.id, status: BatchStatus.PENDING_SEND });
    const row = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batch.id) } });
    expect(row.scheduledAt?.toISOString()).toBe(later);

    // in the past, or beyond 90 days: 400, nothing changes
    for (const scheduledAt of [inHours(-1), inHours(24 * 91)]) {
      const refused = await sb.POST("/v1/batches/{id}/schedule", { ...path, body: { scheduledAt } });
      expect(refused.response.status).toBe(400);
    }
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batch.id) } })).scheduledAt).toEqual(
      row.scheduledAt,
    );

    // another customer's batch answers like a missing one, in the client's language
    const foreign = { params: { path: { id: theirs.id } }, body: { scheduledAt: later } };
    const [en, zh] = [
      await sb.POST("/v1/batches/{id}/schedule", foreign),
      await client(a.key, "zh").POST("/v1/batches/{id}/schedule", foreign),
    ];
    expect([en.response.status, zh.response.status]).toEqual([404, 404]);
    expect(en.error?.message).toMatch(/not found/i);
    expect(zh.error?.message).toMatch(/不存在/);
    const untouched = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(theirs.id) } });
    expect(untouched.scheduledAt?.toISOString()).toBe(theirs.scheduledAt);

    // a key without the send scope: 403, nothing changes
    const reader = await otherKey(a, ["read"]);
    const byReader = await client(reader).POST("/v1/batches/{id}/schedule", { ...path, body: { scheduledAt: null } });
    expect(byReader.response.status).toBe(403);

    // a cancelled batch keeps its status: 409
    const cancelled = await scheduledBatch(a.key, ["+12025550144"]);
    await sb.POST("/v1/batches/{id}/cancel", { params: { path: { id: cancelled.id } } });
    const late = await sb.POST("/v1/batches/{id}/schedule", {
      params: { path: { id: cancelled.id } },
      body: { scheduledAt: null },
    });
    expect(late.response.status).toBe(409);

    // null: send at once
    const now = await sb.POST("/v1/batches/{id}/schedule", { ...path, body: { scheduledAt: null } });
    expect(now.response.status).toBe(200);
    expect(now.data?.data.scheduledAt).toBeNull();
  });
});

describe("GET /v1/products", () => {
  it("lists the tenant's active products with whether each can send for this customer", async () => {
    const a = await developer(["read"]);
    const res = await client(a.key).GET("/v1/products");
    expect(res.response.status, JSON.stringify(res.error)).toBe(200);
    const product = res.data?.data.list.find((p) => p.id === w.productId);
    expect(product).toMatchObject({ code: 3000, sendable: true, unavailableReason: null });
    expect(res.data?.data.total).toBe(res.data?.data.list.length);

    // the product's channel paused: listed, not sendable, and why in the client's language
    await t.prisma.channel.update({ where: { id: w.channelId }, data: { status: 2 } });
    try {
      const [en, zh] = [await client(a.key).GET("/v1/products"), await client(a.key, "zh").GET("/v1/products")];
      const [pe, pz] = [en, zh].map((r) => r.data?.data.list.find((p) => p.id === w.productId));
      expect(pe?.sendable).toBe(false);
      expect(pe?.unavailableReason).toBeTruthy();
      expect(pz?.unavailableReason).not.toBe(pe?.unavailableReason);
    } finally {
      await t.prisma.channel.update({ where: { id: w.channelId }, data: { status: 1 } });
    }

    // a send-only key may not read
    const sender = await otherKey(a, ["send"]);
    expect((await client(sender).GET("/v1/products")).response.status).toBe(403);
  });
});

describe("sender ids through the developer API", () => {
  it("requests one (waiting for review), refuses the same again, withdraws it; manage scope; others' are 404", async () => {
    const a = await developer(["read", "manage"]);
    const b = await developer(["read", "manage"]);
    const sb = client(a.key);

    const requested = await sb.POST("/v1/sender-ids", { body: { senderId: "ACME", countryCode: "US" } });
    expect(requested.response.status, JSON.stringify(requested.error)).toBe(200);
    const row = requested.data!.data;
    expect(row).toMatchObject({ senderId: "ACME", countryCode: "US", status: SenderIdStatus.REQUESTED });

    const again = await sb.POST("/v1/sender-ids", { body: { senderId: "ACME", countryCode: "US" } });
    expect(again.response.status).toBe(409);
    const listed = await sb.GET("/v1/sender-ids", { params: { query: {} } });
    expect(listed.data?.data.list.map((s) => s.id)).toEqual([row.id]);

    // another customer can neither see nor withdraw it
    const theirs = await client(b.key).POST("/v1/sender-ids/{id}/withdraw", { params: { path: { id: row.id } } });
    expect(theirs.response.status).toBe(404);
    expect((await client(b.key).GET("/v1/sender-ids", { params: { query: {} } })).data?.data.list).toEqual([]);

    // read and send keys may not change sender ids
    const sender = await otherKey(a, ["send", "read"]);
    expect(
      (await client(sender).POST("/v1/sender-ids", { body: { senderId: "OTHER", countryCode: null } })).response.status,
    ).toBe(403);
    expect(
      (await client(sender).POST("/v1/sender-ids/{id}/withdraw", { params: { path: { id: row.id } } })).response.status,
    ).toBe(403);

    // the list by cursor: two more, read two at a time, every one once, newest first
    for (const senderId of ["ACME2", "ACME3"]) {
      expect((await sb.POST("/v1/sender-ids", { body: { senderId, countryCode: null } })).response.status).toBe(200);
    }
    const first = await sb.GET("/v1/sender-ids", { params: { query: { pageSize: 2 } } });
    expect(first.data?.data).toMatchObject({ total: 3, nextCursor: expect.any(String) });
    const rest = await sb.GET("/v1/sender-ids", {
      params: { query: { pageSize: 2, cursor: first.data?.data.nextCursor ?? undefined } },
    });
    expect(rest.data?.data.nextCursor).toBeNull();
    const walked = [...(first.data?.data.list ?? []), ...(rest.data?.data.list ?? [])].map((r) => r.senderId);
    expect(walked).toEqual(["ACME3", "ACME2", "ACME"]);
    for (const r of rest.data?.data.list.concat(first.data?.data.list ?? []) ?? []) {
      if (r.id !== row.id) await sb.POST("/v1/sender-ids/{id}/withdraw", { params: { path: { id: r.id } } });
    }

    const withdrawn = await sb.POST("/v1/sender-ids/{id}/withdraw", { params: { path: { id: row.id } } });
    expect(withdrawn.response.status).toBe(200);
    expect(withdrawn.data?.data).toEqual({ id: row.id });
    expect(await t.prisma.senderId.count({ where: { userId: a.id } })).toBe(0);
    const gone = await client(a.key, "zh").POST("/v1/sender-ids/{id}/withdraw", { params: { path: { id: row.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error?.message).toMatch(/不存在/);
  });
});
