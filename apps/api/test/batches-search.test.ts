// Message search (GET /batch/recipients/search): one number's messages across the batches the caller may see,
// newest first; customers their own, agents their customers', admins their tenant's, a super admin every tenant's
// (or the tenant-id header's); another tenant's numbers are never found; the number is read like a submission's.
import { type RecipientSearchResult, UserType } from "@switchboard/contracts";
import { Prisma } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recipientSearchSql } from "../src/modules/batch-lists/search.service";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let foreign: BatchWorld;
let c1: Account;
let c2: Account;
let cf: Account;
const batches: Record<string, string> = {};
// A number no other test file sends to (the database is shared by the run).
const NUMBER = "+14155550142";

async function send(c: Account, world: BatchWorld, numbers: string[]) {
  const res = await post<{ batch: { id: string } }>(t, "/batch/submit", c.token, multiple(world, numbers));
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data.batch.id;
}

async function search(token: string, query: Record<string, string>, headers: Record<string, string> = {}) {
  return get<RecipientSearchResult>(t, "/batch/recipients/search", token, query, { headers });
}

async function found(token: string, number = NUMBER, extra: Record<string, string> = {}, headers = {}) {
  const res = await search(token, { number, ...extra }, headers);
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  foreign = await fx.world();
  c1 = await fx.customer(w, "10.00");
  c2 = await fx.account(UserType.USER, w.tenantId, { agentId: w.otherAgent.id, balance: "10.00" });
  cf = await fx.customer(foreign, "10.00");
  // Oldest first: c1, the foreign tenant's customer, c2, c1 again (two numbers, one of them the searched one).
  batches.c1old = await send(c1, w, [NUMBER]);
  batches.foreign = await send(cf, foreign, [NUMBER]);
  batches.c2 = await send(c2, w, ["+12025550123", NUMBER]);
  batches.c1new = await send(c1, w, [NUMBER, "+447400123456"]);
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

describe("message search by number", () => {
  it("a customer finds its own messages only, newest first, without the channel", async () => {
    const r = await found(c1.token, "+1 (415) 555-0142");
    expect(r.e164).toBe(NUMBER);
    expect(r).toMatchObject({ total: 2, capped: false });
    expect(r.list.map((row) => row.batchId)).toEqual([batches.c1new, batches.c1old]);
    expect(r.list[0]).toMatchObject({
      phone: NUMBER,
      countryCode: "US",
      productCode: 3000,
      productName: "Test SMS",
      taskType: 2,
      userId: c1.id,
      user: c1.username,
      sendResult: 0,
      channelId: null,
      channelName: null,
      tenantName: null,
    });
    // "00" is read as "+", like a submission.
    expect((await found(c1.token, "0014155550142")).total).toBe(2);
  });

  it("an agent finds its customers' messages, an admin its tenant's with the channel, never another tenant's", async () => {
    const agent = await found(w.agent.token);
    expect(agent.list.map((row) => row.batchId)).toEqual([batches.c1new, batches.c1old]);
    const other = await found(w.otherAgent.token);
    expect(other.list.map((row) => row.batchId)).toEqual([batches.c2]);

    const admin = await found(w.admin.token);
    expect(admin.list.map((row) => row.batchId)).toEqual([batches.c1new, batches.c2, batches.c1old]);
    expect(admin.list[0]).toMatchObject({ channelId: w.channelId, channelName: "SMSC", tenantName: null });

    const foreignAdmin = await found(foreign.admin.token);
    expect(foreignAdmin.list.map((row) => row.batchId)).toEqual([batches.foreign]);
    // Another tenant's number (the searched number of the other tenant) answers like a number never sent to.
    expect(await found(foreign.admin.token, "+447400123456")).toMatchObject({ total: 0, list: [] });
    expect(await found(cf.token, "+12025550123")).toMatchObject({ total: 0, list: [] });
  });

  it("a super admin finds every tenant's with the tenant's name, or one tenant's through the header", async () => {
    const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN } });
    const token = t.app.signToken(sa).token;
    const all = await found(token);
    expect(all.list.map((row) => row.batchId)).toEqual([batches.c1new, batches.c2, batches.foreign, batches.c1old]);
    expect(all.list.every((row) => row.tenantName === "Batch test tenant")).toBe(true);
    const one = await found(token, NUMBER, {}, { "tenant-id": String(foreign.tenantId) });
    expect(one.list.map((row) => [row.batchId, row.tenantName])).toEqual([[batches.foreign, null]]);
  });

  it("pages, filters by product, and refuses a number that is not one with 400", async () => {
    const second = await found(w.admin.token, NUMBER, { page: "2", pageSize: "1" });
    expect(second).toMatchObject({ total: 3 });
    expect(second.list.map((row) => row.batchId)).toEqual([batches.c2]);
    expect(await found(w.admin.token, NUMBER, { page: "4", pageSize: "1" })).toMatchObject({ total: 3, list: [] });
    expect(await found(w.admin.token, NUMBER, { productCode: "1000" })).toMatchObject({ total: 0, list: [] });

    for (const bad of ["12345", "not a number", "+999123"]) {
      const res = await search(c1.token, { number: bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: 1, message: "the number is not valid" });
    }
    expect((await search(c1.token, {})).status).toBe(400);
    expect((await search(c1.token, { number: "1".repeat(40) })).status).toBe(400);
    expect((await search(c1.token, { number: NUMBER, productCode: "7" })).status).toBe(400);
    expect((await get(t, "/batch/recipients/search", undefined, { number: NUMBER })).status).toBe(401);
  });

  it("reads the number's rows through the index on recipients(phone, batchId, id)", async () => {
    const plan = await t.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const principal = {
        userId: w.admin.id,
        type: UserType.ADMIN,
        homeTenantId: w.tenantId,
        tenantId: w.tenantId,
        agentId: null,
        username: w.admin.username,
        jti: "x",
        exp: 0,
      };
      return tx.$queryRaw<Array<{ "QUERY PLAN": string }>>(
        Prisma.sql`EXPLAIN ${recipientSearchSql(principal, NUMBER, undefined, 20)}`,
      );
    });
    const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
    // recipients is partitioned by id (docs/operations.md): each partition is read through its own copy of the
    // index (recipients_p<k>_phone_batchId_id_idx), none scanned whole.
    expect(text).toMatch(/recipients_p\d+_phone_batchId_id_idx/);
    expect(text).not.toMatch(/Seq Scan on recipients/);
  });
});
