// Set-up shared by the catalog, prices, channels and routing tests: a fresh tenant per file (so the demo data
// and other files never interfere), accounts made straight in the database with tokens issued by the app,
// and small helpers that call the real routes and insist they succeed.
import { UserType } from "@switchboard/contracts";
import { expect } from "vitest";
import { type CallOptions, call, type Envelope, type TestContext, uniqueName } from "./helpers";

export interface Account {
  id: number;
  username: string;
  type: number;
  tenantId: number | null;
  token: string;
}

export async function account(
  t: TestContext,
  type: number,
  tenantId: number | null,
  agentId: number | null = null,
): Promise<Account> {
  const user = await t.prisma.user.create({
    data: {
      username: uniqueName(type === UserType.USER ? "cu" : type === UserType.AGENT ? "ag" : "ad"),
      type,
      tenantId,
      agentId,
      // never used: tokens come from app.signToken
      passwordHash: "unused",
    },
  });
  return { id: user.id, username: user.username, type, tenantId, token: t.app.signToken(user).token };
}

/** A tenant with an admin, two agents with a customer each, and a customer of the tenant itself. */
export async function makeWorld(t: TestContext) {
  const tenant = await t.prisma.tenant.create({
    data: { code: uniqueName("tn").toLowerCase().slice(0, 32), name: "Catalog test tenant", currency: "USD" },
  });
  const admin = await account(t, UserType.ADMIN, tenant.id);
  const agent = await account(t, UserType.AGENT, tenant.id);
  const otherAgent = await account(t, UserType.AGENT, tenant.id);
  const customer = await account(t, UserType.USER, tenant.id, agent.id);
  const otherCustomer = await account(t, UserType.USER, tenant.id, otherAgent.id);
  const direct = await account(t, UserType.USER, tenant.id);
  return { tenantId: tenant.id, admin, agent, otherAgent, customer, otherCustomer, direct };
}
export type World = Awaited<ReturnType<typeof makeWorld>>;

export async function superAdmin(t: TestContext): Promise<Account> {
  const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN, deletedAt: null } });
  return { id: sa.id, username: sa.username, type: sa.type, tenantId: null, token: t.app.signToken(sa).token };
}

/** Calls a route and insists on success; returns data. */
export async function ok<T = Record<string, unknown>>(
  t: TestContext,
  method: "GET" | "POST",
  url: string,
  o: CallOptions,
): Promise<T> {
  const res = await call<T>(t.app, method, url, o);
  if (res.body.code !== 0) throw new Error(`${method} ${url} failed: ${res.status} ${res.body.message}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Calls a route and insists on a refusal with this HTTP status; returns the English message. */
export async function refused(
  t: TestContext,
  method: "GET" | "POST",
  url: string,
  status: number,
  o: CallOptions,
): Promise<string> {
  const res = await call<null>(t.app, method, url, { lang: "en", ...o });
  expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status, code: status === 401 ? 401 : 1 });
  expect(res.body.data).toBeNull();
  return res.body.message;
}

export type { Envelope };

export interface ProductData {
  id: number;
  code: number;
  name: string;
  status: number;
  countryScope: number;
  countryCodes: string[];
}

export async function createProduct(
  t: TestContext,
  admin: Account,
  body: { code?: number; name?: string; category?: string; countryScope?: number; countryCodes?: string[] } = {},
): Promise<ProductData> {
  return ok<ProductData>(t, "POST", "/product/create", {
    token: admin.token,
    body: { code: 3000, name: uniqueName("Product "), category: "SMS", ...body },
  });
}

/** The Prisma client with every model call counted (how many queries a function makes). */
export function countingDb(prisma: TestContext["prisma"]) {
  let calls = 0;
  const db = new Proxy(prisma, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== "string" || prop.startsWith("$") || typeof value !== "object" || value === null) return value;
      return new Proxy(value, {
        get(model, method, r) {
          const fn = Reflect.get(model, method, r) as unknown;
          if (typeof fn !== "function") return fn;
          return (...args: unknown[]) => {
            calls += 1;
            return (fn as (...a: unknown[]) => unknown).apply(model, args);
          };
        },
      });
    },
  });
  return { db, calls: () => calls };
}
