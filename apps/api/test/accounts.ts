// Accounts for the user, authentication, developer and permission tests: rows made straight in the database
// (one password hash shared by all, so making many is cheap) and real session tokens from the app itself.
import { AccountStatus, UserType } from "@switchboard/contracts";
import { hashPassword } from "@switchboard/db";
import { type CallOptions, call, type TestContext, uniqueName } from "./helpers";

export const PASSWORD = "Passw0rd1";
/**
 * Passwords the policy accepts, for tests that set one through the API (PASSWORD above is only ever hashed
 * straight into the database, so it predates the policy and stays weak on purpose).
 */
export const NEW_PASSWORD = "Rivet-Lantern-82";
export const OTHER_NEW_PASSWORD = "Blue-Harbor-7319";
let passwordHash: Promise<string> | undefined;

export interface Account {
  id: number;
  username: string;
  type: number;
  tenantId: number | null;
  token: string;
}

export interface AccountOptions {
  agentId?: number | null;
  balance?: bigint;
  authStatus?: number;
  authRequirement?: number;
  status?: number;
  nickname?: string;
  company?: string;
  email?: string;
  phone?: string;
}

/** A new account with a live token (type and tenant as given). */
export async function makeAccount(
  t: TestContext,
  type: number,
  tenantId: number | null,
  o: AccountOptions = {},
): Promise<Account> {
  passwordHash ??= hashPassword(PASSWORD);
  const u = await t.prisma.user.create({
    data: {
      // the closing "z" keeps one name from containing another (…1z is not inside …12z) in keyword searches
      username: `${uniqueName(type === UserType.USER ? "c" : type === UserType.AGENT ? "ag" : "ad").slice(0, 63)}z`,
      type,
      tenantId,
      passwordHash: await passwordHash,
      status: o.status ?? AccountStatus.NORMAL,
      agentId: o.agentId ?? null,
      balance: o.balance ?? 0n,
      authStatus: o.authStatus ?? 0,
      authRequirement: o.authRequirement ?? 0,
      nickname: o.nickname ?? null,
      company: o.company ?? null,
      email: o.email ?? null,
      phone: o.phone ?? null,
    },
  });
  return { id: u.id, username: u.username, type, tenantId, token: t.app.signToken(u).token };
}

export async function makeTenant(t: TestContext, name = "Test tenant") {
  return t.prisma.tenant.create({ data: { code: uniqueName("tn").toLowerCase().slice(0, 32), name } });
}

/** A tenant with an admin, two agents, a customer of each agent and a customer owned by the tenant itself. */
export async function makeWorld(t: TestContext) {
  const tenant = await makeTenant(t);
  const admin = await makeAccount(t, UserType.ADMIN, tenant.id);
  const agent1 = await makeAccount(t, UserType.AGENT, tenant.id);
  const agent2 = await makeAccount(t, UserType.AGENT, tenant.id);
  const customer1 = await makeAccount(t, UserType.USER, tenant.id, { agentId: agent1.id });
  const customer2 = await makeAccount(t, UserType.USER, tenant.id, { agentId: agent2.id });
  const direct = await makeAccount(t, UserType.USER, tenant.id);
  return { tenant, tenantId: tenant.id, admin, agent1, agent2, customer1, customer2, direct };
}
export type World = Awaited<ReturnType<typeof makeWorld>>;

/** A token of the seeded super admin. */
export async function superAdminToken(t: TestContext): Promise<{ id: number; token: string }> {
  const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN, deletedAt: null } });
  return { id: sa.id, token: t.app.signToken(sa).token };
}

export const get = <T = unknown>(t: TestContext, url: string, token: string | undefined, o: CallOptions = {}) =>
  call<T>(t.app, "GET", url, { token, lang: "en", ...o });

export const post = <T = unknown>(
  t: TestContext,
  url: string,
  token: string | undefined,
  body: unknown,
  o: CallOptions = {},
) => call<T>(t.app, "POST", url, { token, body, lang: "en", ...o });

export interface FilePart {
  field?: string;
  name: string;
  type?: string;
  data: Buffer;
}

/** A multipart/form-data body made by hand (so tests control every byte, names and declared types included). */
export function multipart(fields: Record<string, string>, files: FilePart[], fileField = "documents") {
  const boundary = `----sbtest${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? fileField}"; filename="${f.name}"\r\n` +
          `Content-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      f.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Small files that start with the real magic bytes of each kind. */
export const SAMPLE = {
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from("IHDR fake png body"),
  ]),
  jpg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from("JFIF fake jpeg body")]),
  pdf: Buffer.from("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n"),
};
