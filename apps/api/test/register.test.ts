import { UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEW_PASSWORD } from "./accounts";
import { call, createTestApp, demoTenantId, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let tenantId: number;
beforeAll(async () => {
  t = await createTestApp();
  tenantId = await demoTenantId(t.prisma);
});
afterAll(() => t.close());

describe("POST /auth/register", () => {
  it("creates a customer of the host's tenant (no agent) and signs it in", async () => {
    const username = uniqueName("reg");
    const res = await call<{
      token: string;
      user: { type: number; tenantId: number; agentId: number | null; authStatus: number };
    }>(t.app, "POST", "/auth/register", {
      body: { username, password: NEW_PASSWORD, email: "a@example.com", company: "ACME" },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data.user).toMatchObject({ type: UserType.USER, tenantId, agentId: null, authStatus: 0 });
    const info = await call<{ user: string }>(t.app, "GET", "/user/info", { token: res.body.data.token });
    expect(info.body.data.user).toBe(username);
    const row = await t.prisma.user.findFirstOrThrow({ where: { username, tenantId } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await t.prisma.loginLog.count({ where: { userId: row.id, success: true } })).toBe(1);
  });

  it("lands under the agent whose website config matches the host", async () => {
    const agent = await t.prisma.user.findFirstOrThrow({ where: { tenantId, username: "agent" } });
    const res = await call<{ user: { agentId: number | null } }>(t.app, "POST", "/auth/register", {
      body: { username: uniqueName("ag"), password: NEW_PASSWORD },
      headers: { host: "agent.localhost:8080" },
    });
    expect(res.body.data.user.agentId).toBe(agent.id);
  });

  it("refuses a taken username with 409", async () => {
    const res = await call(t.app, "POST", "/auth/register", {
      body: { username: "customer", password: NEW_PASSWORD },
      lang: "en",
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("this username is already taken");
  });

  it.each([
    [{ password: NEW_PASSWORD }, "field username is required"],
    [{ username: "ab", password: NEW_PASSWORD }, "field username must be at least 3 long"],
    [{ username: "x".repeat(65), password: NEW_PASSWORD }, "field username must be at most 64 long"],
    [{ username: "bad name!", password: NEW_PASSWORD }, "field username has an invalid format"],
    [{ username: 42, password: NEW_PASSWORD }, "field username must be a string"],
    [{ username: "okname", password: NEW_PASSWORD, email: "not-an-email" }, "field email has an invalid format"],
    [
      { username: "okname", password: NEW_PASSWORD, company: "c".repeat(201) },
      "field company must be at most 200 long",
    ],
    [
      { username: "okname", password: "weakpassword" },
      "this password is too common (it or a variant of it is on lists of popular passwords); choose another",
    ],
    [{ username: "okname", password: "okname2024" }, "the password must not contain the username"],
  ])("refuses %j with a message naming the problem and writes nothing", async (body, message) => {
    const before = await t.prisma.user.count();
    const res = await call(t.app, "POST", "/auth/register", { body, lang: "en" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 1, message, data: null });
    expect(await t.prisma.user.count()).toBe(before);
  });

  it("answers in Chinese by default", async () => {
    const res = await call(t.app, "POST", "/auth/register", { body: { password: NEW_PASSWORD } });
    expect(res.body.message).toBe("字段 username 为必填项");
  });

  it("refuses when the tenant has closed registration", async () => {
    const other = await t.prisma.tenant.create({
      data: { code: uniqueName("cl").slice(0, 32), name: "Closed", setting: { create: { registrationOpen: false } } },
    });
    const res = await call(t.app, "POST", "/auth/register", {
      body: { username: uniqueName("c"), password: NEW_PASSWORD },
      headers: { "tenant-id": String(other.id) },
      lang: "en",
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("registration is closed on this platform");
  });
});
