// Shared set-up of the finance tests: accounts with an opening balance written through the ledger, tokens
// issued by the app itself, and a record of every user whose balance a test moved, so each file can check at
// the end that the ledger of every one of them replays to its balance.
import { AccountStatus, BalanceLogType, formatMoney, parseMoney, UserType } from "@switchboard/contracts";
import { applyBalanceChange, verifyLedger } from "@switchboard/domain/ledger";
import { expect } from "vitest";
import { call, type TestContext, uniqueName } from "./helpers";

export interface Account {
  id: number;
  tenantId: number;
  type: UserType;
  username: string;
  token: string;
}

export class FinanceFixtures {
  /** Users whose ledger the file checks at the end. */
  readonly touched = new Set<number>();

  constructor(private readonly t: TestContext) {}

  /** A user of `tenantId` with an opening balance ("12.50") recharged through the ledger. */
  async account(
    type: UserType,
    tenantId: number,
    opts: { agentId?: number; balance?: string; status?: AccountStatus } = {},
  ): Promise<Account> {
    const username = uniqueName(type === UserType.AGENT ? "ag" : type === UserType.USER ? "cu" : "ad");
    const user = await this.t.prisma.user.create({
      data: {
        tenantId,
        type,
        username,
        // Never used to sign in: tokens come from app.signToken below.
        passwordHash: "unused",
        agentId: opts.agentId ?? null,
        status: opts.status ?? AccountStatus.NORMAL,
      },
    });
    this.touched.add(user.id);
    if (opts.balance) await this.credit(user.id, tenantId, opts.balance);
    const { token } = this.t.app.signToken(user);
    return { id: user.id, tenantId, type, username, token };
  }

  /** An opening credit written straight through the ledger (as the platform, no operator). */
  async credit(userId: number, tenantId: number, amount: string) {
    const units = parseMoney(amount);
    if (units === null) throw new Error(`bad amount ${amount}`);
    await this.t.prisma.$transaction((tx) =>
      applyBalanceChange(tx, { tenantId, userId, type: BalanceLogType.RECHARGE, amount: units, remark: "opening" }),
    );
  }

  async tenant(): Promise<number> {
    const code = uniqueName("tn").slice(0, 32).toLowerCase();
    return (await this.t.prisma.tenant.create({ data: { code, name: code } })).id;
  }

  async balance(userId: number): Promise<string> {
    const { balance } = await this.t.prisma.user.findUniqueOrThrow({
      where: { id: userId },
      select: { balance: true },
    });
    return formatMoney(balance);
  }

  async logCount(userId: number): Promise<number> {
    return this.t.prisma.balanceLog.count({ where: { userId } });
  }

  /** Every touched user's log replays to its balance. */
  async expectLedgersReplay() {
    for (const id of this.touched) {
      const check = await verifyLedger(this.t.prisma, id);
      expect(check, `ledger of user ${id}`).toMatchObject({ ok: true, firstMismatch: null });
      expect(check.balance).toBe(check.recordedBalance);
    }
  }
}

/** POST with a token; returns status and envelope. */
export function post<T = unknown>(t: TestContext, url: string, token: string | undefined, body: unknown, lang?: "en") {
  return call<T>(t.app, "POST", url, { token, body, ...(lang ? { lang } : {}) });
}

/** GET with a token; query values left undefined are not sent. */
export function get<T = unknown>(
  t: TestContext,
  url: string,
  token: string | undefined,
  query: Record<string, string | undefined> = {},
  headers?: Record<string, string>,
) {
  const sent = Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return call<T>(t.app, "GET", url, { token, query: sent, headers });
}
