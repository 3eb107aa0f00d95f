// Remittances: declaring (with a proof upload), listing, confirming (a credit through the ledger, at most once),
// rejecting, and the private proof download.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BalanceLogType, RemittanceStatus, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures, get, post } from "./finance-fixtures";
import { createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let uploadDir: string;
let tenantId: number;
let admin: Account;
let agent: Account;
let customer: Account;
let otherAgent: Account;
let otherCustomer: Account;
let foreignAdmin: Account;

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(tmpdir(), "sb-remit-"));
  t = await createTestApp({ UPLOAD_DIR: uploadDir });
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
  admin = await fx.account(UserType.ADMIN, tenantId);
  agent = await fx.account(UserType.AGENT, tenantId, { balance: "1000" });
  customer = await fx.account(UserType.USER, tenantId, { agentId: agent.id });
  otherAgent = await fx.account(UserType.AGENT, tenantId, { balance: "1000" });
  otherCustomer = await fx.account(UserType.USER, tenantId, { agentId: otherAgent.id });
  foreignAdmin = await fx.account(UserType.ADMIN, await fx.tenant());
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
  await rm(uploadDir, { recursive: true, force: true });
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const PDF = Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n");

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data request body. */
function multipart(parts: Part[]) {
  const boundary = `----sbtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename ? `Content-Type: ${p.type ?? "application/octet-stream"}\r\n` : ""}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(token: string, parts: Part[]) {
  const { payload, contentType } = multipart(parts);
  const res = await t.app.inject({
    method: "POST",
    url: "/finance/remit/create",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType, lang: "en" },
    payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; message: string; data: RemitRow } };
}

interface RemitRow {
  id: number;
  userId: number;
  user: string;
  amount: string;
  payer: string;
  reference: string | null;
  hasProof: boolean;
  status: number;
  reviewer: string | null;
  reason: string | null;
}

async function declare(by: Account, amount = "100", extra: Record<string, unknown> = {}) {
  const res = await post<RemitRow>(t, "/finance/remit/create", by.token, { amount, payer: "ACME Ltd", ...extra });
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

async function storedFiles(): Promise<string[]> {
  return (await readdir(uploadDir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => d.name);
}

describe("POST /finance/remit/create", () => {
  it("records a customer's JSON declaration as pending, without a proof", async () => {
    const row = await declare(customer, "250.5", { reference: "TX-1", remark: "May invoice" });
    expect(row).toMatchObject({
      userId: customer.id,
      user: customer.username,
      amount: "250.5000",
      payer: "ACME Ltd",
      reference: "TX-1",
      hasProof: false,
      status: RemittanceStatus.PENDING,
      reviewer: null,
    });
    expect(await fx.balance(customer.id)).toBe("0.0000");
  });

  it("accepts a png or pdf proof sent as multipart/form-data and stores it privately", async () => {
    const png = await upload(customer.token, [
      { name: "amount", value: "99.99" },
      { name: "payer", value: "Li Lei" },
      { name: "proof", value: PNG, filename: "receipt.png", type: "image/png" },
    ]);
    expect(png.status).toBe(200);
    expect(png.body.data).toMatchObject({ amount: "99.9900", payer: "Li Lei", hasProof: true, status: 1 });
    const pdf = await upload(customer.token, [
      { name: "amount", value: "1" },
      { name: "payer", value: "Li Lei" },
      { name: "proof", value: PDF, filename: "r.pdf", type: "application/pdf" },
    ]);
    expect(pdf.status).toBe(200);
    const stored = await t.prisma.remittance.findUniqueOrThrow({ where: { id: pdf.body.data.id } });
    expect(stored.proofPath).toMatch(new RegExp(`^remittances/${tenantId}/[0-9a-f]{32}\\.pdf$`));
  });

  it("refuses a file whose bytes are not png/jpg/pdf, whatever its name says, and stores nothing", async () => {
    const before = await storedFiles();
    const res = await upload(customer.token, [
      { name: "amount", value: "5" },
      { name: "payer", value: "X" },
      { name: "proof", value: Buffer.from("MZ this is an executable"), filename: "fake.png", type: "image/png" },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("file proof.0 is not of an accepted type (png, jpg, pdf)");
    expect(await storedFiles()).toEqual(before);
  });

  it("refuses a proof over 5 MB (413), a second file (413) and a file in another field (400)", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await upload(customer.token, [
      { name: "amount", value: "5" },
      { name: "payer", value: "X" },
      { name: "proof", value: big, filename: "big.png" },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe("each file must be at most 5 MB");
    const two = await upload(customer.token, [
      { name: "amount", value: "5" },
      { name: "payer", value: "X" },
      { name: "proof", value: PNG, filename: "a.png" },
      { name: "proof", value: PNG, filename: "b.png" },
    ]);
    expect(two.status).toBe(413);
    const other = await upload(customer.token, [
      { name: "amount", value: "5" },
      { name: "payer", value: "X" },
      { name: "avatar", value: PNG, filename: "a.png" },
    ]);
    expect(other.status).toBe(400);
  });

  it("validates the fields of both forms: 400 naming the field, nothing stored", async () => {
    const before = await t.prisma.remittance.count({ where: { userId: customer.id } });
    const files = await storedFiles();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ payer: "X" }, "field amount"],
      [{ amount: "0", payer: "X" }, "field amount must be a positive amount"],
      [{ amount: "-5", payer: "X" }, "field amount must be a positive amount"],
      [{ amount: "1.234", payer: "X" }, "at most 2 decimals"],
      [{ amount: "ten", payer: "X" }, "field amount must be a positive amount"],
      [{ amount: "100000001", payer: "X" }, "field amount must be at most"],
      [{ amount: "5" }, "field payer is required"],
      [{ amount: "5", payer: "   " }, "field payer is required"],
      [{ amount: "5", payer: "p".repeat(201) }, "field payer must be at most 200 long"],
      [{ amount: "5", payer: "X", reference: "r".repeat(201) }, "field reference"],
      [{ amount: "5", payer: "X", remark: "r".repeat(501) }, "field remark"],
    ];
    for (const [body, message] of cases) {
      const json = await post(t, "/finance/remit/create", customer.token, body, "en");
      expect(json.status, JSON.stringify(body)).toBe(400);
      expect(json.body.message).toContain(message);
      const form = await upload(customer.token, [
        ...Object.entries(body).map(([name, value]) => ({ name, value: String(value) })),
        { name: "proof", value: PNG, filename: "ok.png" },
      ]);
      expect(form.status, JSON.stringify(body)).toBe(400);
      expect(form.body.message).toContain(message);
    }
    expect(await t.prisma.remittance.count({ where: { userId: customer.id } })).toBe(before);
    expect(await storedFiles()).toEqual(files);
  });

  it("is for customers only (403 for staff, 401 without a session)", async () => {
    expect((await post(t, "/finance/remit/create", agent.token, { amount: "1", payer: "X" })).status).toBe(403);
    expect((await post(t, "/finance/remit/create", admin.token, { amount: "1", payer: "X" })).status).toBe(403);
    expect((await post(t, "/finance/remit/create", undefined, { amount: "1", payer: "X" })).status).toBe(401);
  });
});

describe("POST /finance/remit/confirm", () => {
  it("lets the owning agent confirm: the customer is credited (type 6), the agent's balance pays for it", async () => {
    const r = await declare(customer, "40");
    const agentBefore = await fx.balance(agent.id);
    const custBefore = await fx.balance(customer.id);
    const res = await post<RemitRow>(t, "/finance/remit/confirm", agent.token, { id: r.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: r.id, status: RemittanceStatus.CONFIRMED, reviewer: agent.username });
    expect(Number(await fx.balance(customer.id))).toBe(Number(custBefore) + 40);
    expect(Number(await fx.balance(agent.id))).toBe(Number(agentBefore) - 40);
    const logs = await t.prisma.balanceLog.findMany({ where: { remittanceId: r.id }, orderBy: { id: "asc" } });
    expect(logs.map((l) => [l.userId, l.type, l.amount])).toEqual([
      [agent.id, BalanceLogType.REMITTANCE, -400_000n],
      [customer.id, BalanceLogType.REMITTANCE, 400_000n],
    ]);
  });

  it("lets an admin confirm without drawing from the agent", async () => {
    const r = await declare(otherCustomer, "12.34");
    const agentBefore = await fx.balance(otherAgent.id);
    const res = await post(t, "/finance/remit/confirm", admin.token, { id: r.id });
    expect(res.status).toBe(200);
    expect(await fx.balance(otherCustomer.id)).toBe("12.3400");
    expect(await fx.balance(otherAgent.id)).toBe(agentBefore);
  });

  it("confirms a remittance only once: the second answer is 409 and no second credit", async () => {
    const r = await declare(otherCustomer, "1");
    expect((await post(t, "/finance/remit/confirm", admin.token, { id: r.id })).status).toBe(200);
    const again = await post(t, "/finance/remit/confirm", admin.token, { id: r.id }, "en");
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("this remittance has already been confirmed or rejected");
    expect(await t.prisma.balanceLog.count({ where: { remittanceId: r.id } })).toBe(1);
    expect((await post(t, "/finance/remit/reject", admin.token, { id: r.id, reason: "late" })).status).toBe(409);
  });

  it("leaves the remittance pending when the confirming agent's balance is short (402)", async () => {
    const poorAgent = await fx.account(UserType.AGENT, tenantId, { balance: "10" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: poorAgent.id });
    const r = await declare(c, "10.01");
    const res = await post(t, "/finance/remit/confirm", poorAgent.token, { id: r.id }, "en");
    expect(res.status).toBe(402);
    expect(res.body.message).toContain("insufficient agent balance");
    expect((await t.prisma.remittance.findUniqueOrThrow({ where: { id: r.id } })).status).toBe(
      RemittanceStatus.PENDING,
    );
    expect(await fx.balance(c.id)).toBe("0.0000");
    expect(await fx.balance(poorAgent.id)).toBe("10.0000");
  });

  it("answers 404 outside the caller's scope and for unknown ids, 403 for customers, 400 for bad ids", async () => {
    const r = await declare(customer, "3");
    for (const token of [otherAgent.token, foreignAdmin.token]) {
      const res = await post(t, "/finance/remit/confirm", token, { id: r.id }, "en");
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("remittance not found");
    }
    expect((await post(t, "/finance/remit/confirm", admin.token, { id: 2_000_000_000 })).status).toBe(404);
    expect((await post(t, "/finance/remit/confirm", customer.token, { id: r.id })).status).toBe(403);
    for (const id of ["abc", 0, -1, 1.5, undefined]) {
      expect((await post(t, "/finance/remit/confirm", admin.token, { id })).status, String(id)).toBe(400);
    }
    expect((await t.prisma.remittance.findUniqueOrThrow({ where: { id: r.id } })).status).toBe(
      RemittanceStatus.PENDING,
    );
  });
});

describe("POST /finance/remit/reject", () => {
  it("rejects with a reason and moves no money; a rejected remittance cannot be confirmed", async () => {
    const r = await declare(customer, "77");
    const before = await fx.balance(customer.id);
    const res = await post<RemitRow>(t, "/finance/remit/reject", agent.token, { id: r.id, reason: "no such transfer" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: RemittanceStatus.REJECTED, reason: "no such transfer" });
    expect(await fx.balance(customer.id)).toBe(before);
    expect((await post(t, "/finance/remit/confirm", admin.token, { id: r.id })).status).toBe(409);
    expect((await post(t, "/finance/remit/reject", agent.token, { id: r.id, reason: "again" })).status).toBe(409);
  });

  it("needs a reason of at most 500 characters, and the caller's scope", async () => {
    const r = await declare(customer, "2");
    const missing = await post(t, "/finance/remit/reject", admin.token, { id: r.id }, "en");
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("field reason is required");
    expect((await post(t, "/finance/remit/reject", admin.token, { id: r.id, reason: "x".repeat(501) })).status).toBe(
      400,
    );
    expect((await post(t, "/finance/remit/reject", otherAgent.token, { id: r.id, reason: "x" })).status).toBe(404);
    expect((await post(t, "/finance/remit/reject", customer.token, { id: r.id, reason: "x" })).status).toBe(403);
  });
});

describe("GET /finance/remit/list", () => {
  let lister: Account;
  let mine: Account;
  let theirs: Account;
  beforeAll(async () => {
    lister = await fx.account(UserType.AGENT, tenantId, { balance: "100" });
    mine = await fx.account(UserType.USER, tenantId, { agentId: lister.id });
    theirs = await fx.account(UserType.USER, tenantId, { agentId: otherAgent.id });
    const a = await declare(mine, "10");
    await declare(mine, "20.5");
    await declare(theirs, "30");
    await post(t, "/finance/remit/confirm", lister.token, { id: a.id });
  });

  type List = { list: RemitRow[]; total: number; totalAmount: string };

  it("shows a customer only its own, with totals", async () => {
    const res = await get<List>(t, "/finance/remit/list", mine.token);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.totalAmount).toBe("30.5000");
    expect(res.body.data.list.map((r) => r.amount)).toEqual(["20.5000", "10.0000"]);
    const peek = await get<List>(t, "/finance/remit/list", mine.token, { userId: String(theirs.id) });
    expect(peek.body.data.total).toBe(0);
  });

  it("shows an agent its customers' only, and filters by status and user", async () => {
    const all = await get<List>(t, "/finance/remit/list", lister.token);
    expect(all.body.data.list.every((r) => r.userId === mine.id)).toBe(true);
    expect(all.body.data.total).toBe(2);
    const pending = await get<List>(t, "/finance/remit/list", lister.token, { status: "1" });
    expect(pending.body.data).toMatchObject({ total: 1, totalAmount: "20.5000" });
    const confirmed = await get<List>(t, "/finance/remit/list", lister.token, { status: "2" });
    expect(confirmed.body.data.list[0]).toMatchObject({ amount: "10.0000", reviewer: lister.username });
  });

  it("shows an admin the tenant's (filter by agent), another tenant's admin none of them", async () => {
    const byAgent = await get<List>(t, "/finance/remit/list", admin.token, { agentId: String(lister.id) });
    expect(byAgent.body.data.total).toBe(2);
    const byUser = await get<List>(t, "/finance/remit/list", admin.token, { userId: String(theirs.id) });
    expect(byUser.body.data).toMatchObject({ total: 1, totalAmount: "30.0000" });
    const foreign = await get<List>(t, "/finance/remit/list", foreignAdmin.token, { userId: String(theirs.id) });
    expect(foreign.body.data.total).toBe(0);
  });

  it("filters by time and pages", async () => {
    const future = await get<List>(t, "/finance/remit/list", admin.token, {
      agentId: String(lister.id),
      from: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.body.data.total).toBe(0);
    const page = await get<List>(t, "/finance/remit/list", admin.token, {
      agentId: String(lister.id),
      page: "2",
      pageSize: "1",
    });
    expect(page.body.data.list).toHaveLength(1);
    expect(page.body.data.total).toBe(2);
  });

  it("refuses bad filters with 400", async () => {
    for (const q of [{ status: "9" }, { status: "x" }, { pageSize: "1000" }, { from: "yesterday" }, { userId: "-1" }]) {
      expect((await get(t, "/finance/remit/list", admin.token, q)).status, JSON.stringify(q)).toBe(400);
    }
  });
});

describe("GET /finance/remit/proof", () => {
  let id: number;
  beforeAll(async () => {
    const res = await upload(customer.token, [
      { name: "amount", value: "8" },
      { name: "payer", value: "Han Meimei" },
      { name: "proof", value: PNG, filename: "ignored-name.pdf", type: "application/pdf" },
    ]);
    id = res.body.data.id;
  });

  async function fetchProof(token: string | undefined, query: Record<string, string>) {
    return t.app.inject({
      method: "GET",
      url: "/finance/remit/proof",
      query,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), lang: "en" },
    });
  }

  it("streams the file, typed by its content, to the customer, its agent and admins", async () => {
    for (const who of [customer, agent, admin]) {
      const res = await fetchProof(who.token, { id: String(id) });
      expect(res.statusCode, who.username).toBe(200);
      expect(res.headers["content-type"]).toBe("image/png");
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(res.rawPayload.equals(PNG)).toBe(true);
    }
  });

  it("answers 404 to anyone else and for a remittance without a proof, 401 without a session", async () => {
    for (const who of [otherCustomer, otherAgent, foreignAdmin]) {
      const res = await fetchProof(who.token, { id: String(id) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 1, message: "remittance not found", data: null });
    }
    const bare = await declare(customer, "1");
    const none = await fetchProof(customer.token, { id: String(bare.id) });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe("remittance proof not found");
    expect((await fetchProof(undefined, { id: String(id) })).statusCode).toBe(401);
    expect((await fetchProof(customer.token, { id: "x" })).statusCode).toBe(400);
  });
});
