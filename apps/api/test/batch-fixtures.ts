// Set-up of the batch tests: a fresh tenant per file with its own settings, an SMS product priced for a few
// countries with a default channel, accounts with tokens issued by the app, opening balances through the
// ledger, and helpers to read what a batch wrote (recipients, rejected numbers, ledger rows, queued jobs).
import {
  AuthStatus,
  BalanceLogType,
  type BatchStatus,
  batchJobId,
  ProductCode,
  parseMoney,
  type QueueName,
  ReviewMode,
  UserType,
} from "@switchboard/contracts";
import { batchJobKeys } from "@switchboard/db";
import { bullPrefix } from "@switchboard/domain/batches/batch-jobs";
import { applyBalanceChange, verifyLedger } from "@switchboard/domain/ledger";
import { Queue } from "bullmq";
import { expect } from "vitest";
import { type CallOptions, call, type TestContext, uniqueName } from "./helpers";

export interface Account {
  id: number;
  username: string;
  tenantId: number;
  token: string;
}

/** Unit prices (money units per SMS segment) of the test product. */
export const PRICES: Record<string, bigint> = { CN: 350n, US: 80n, GB: 400n };

export interface BatchWorld {
  tenantId: number;
  admin: Account;
  agent: Account;
  otherAgent: Account;
  productId: number;
  channelId: number;
}

export class BatchFixtures {
  /** Users whose ledger the file checks at the end. */
  readonly touched = new Set<number>();
  private queues = new Map<string, Queue>();

  constructor(readonly t: TestContext) {}

  async account(
    type: number,
    tenantId: number,
    o: { agentId?: number; balance?: string; authStatus?: number; authRequirement?: number; status?: number } = {},
  ): Promise<Account> {
    const u = await this.t.prisma.user.create({
      data: {
        username: uniqueName(type === UserType.USER ? "bc" : "bs"),
        type,
        tenantId,
        passwordHash: "unused",
        agentId: o.agentId ?? null,
        authStatus: o.authStatus ?? (type === UserType.USER ? AuthStatus.AUTHENTICATED : 0),
        authRequirement: o.authRequirement ?? 0,
        status: o.status ?? 1,
      },
    });
    this.touched.add(u.id);
    if (o.balance) await this.credit(u.id, tenantId, o.balance);
    return { id: u.id, username: u.username, tenantId, token: this.t.app.signToken(u).token };
  }

  async credit(userId: number, tenantId: number, amount: string) {
    const units = parseMoney(amount)!;
    await this.t.prisma.$transaction((tx) =>
      applyBalanceChange(tx, { tenantId, userId, type: BalanceLogType.RECHARGE, amount: units, remark: "opening" }),
    );
  }

  /** A tenant (review mode as given, default never), an SMS product with PRICES and a default channel. */
  async world(settings: { reviewMode?: number; reviewThreshold?: number; sensitiveWords?: string[] } = {}) {
    const { prisma } = this.t;
    const tenant = await prisma.tenant.create({
      data: { code: uniqueName("tb").toLowerCase().slice(0, 32), name: "Batch test tenant" },
    });
    await prisma.tenantSetting.create({
      data: {
        tenantId: tenant.id,
        reviewMode: settings.reviewMode ?? ReviewMode.NEVER,
        reviewThreshold: settings.reviewThreshold ?? 1000,
        sensitiveWords: settings.sensitiveWords ?? [],
        international: true,
      },
    });
    const channel = await prisma.channel.create({
      data: { tenantId: tenant.id, name: "SMSC", kind: "smpp", productCode: ProductCode.SMS, config: {}, secrets: "" },
    });
    const product = await prisma.product.create({
      data: {
        tenantId: tenant.id,
        code: ProductCode.SMS,
        name: "Test SMS",
        category: "SMS",
        defaultChannelId: channel.id,
      },
    });
    await prisma.price.createMany({
      data: Object.entries(PRICES).map(([countryCode, unitPrice]) => ({
        productId: product.id,
        countryCode,
        unitPrice,
      })),
    });
    const admin = await this.account(UserType.ADMIN, tenant.id);
    const agent = await this.account(UserType.AGENT, tenant.id);
    const otherAgent = await this.account(UserType.AGENT, tenant.id);
    return {
      tenantId: tenant.id,
      admin,
      agent,
      otherAgent,
      productId: product.id,
      channelId: channel.id,
    } satisfies BatchWorld;
  }

  /** A customer of the world's agent, authenticated, with an opening balance. */
  customer(w: BatchWorld, balance = "100.00", o: Parameters<BatchFixtures["account"]>[2] = {}) {
    return this.account(UserType.USER, w.tenantId, { agentId: w.agent.id, balance, ...o });
  }

  async balance(userId: number): Promise<bigint> {
    return (await this.t.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { balance: true } })).balance;
  }

  async batchCount(userId: number): Promise<number> {
    return this.t.prisma.messageBatch.count({ where: { userId } });
  }

  async logs(userId: number) {
    return this.t.prisma.balanceLog.findMany({ where: { userId }, orderBy: { id: "asc" } });
  }

  /** The batch's charge is exact: cost == sum of recipient prices, one consume row of -cost pointing at it. */
  async expectExactCharge(batchId: string) {
    const id = BigInt(batchId);
    const batch = await this.t.prisma.messageBatch.findUniqueOrThrow({ where: { id } });
    const sum = await this.t.prisma.recipient.aggregate({
      where: { batchId: id },
      _sum: { price: true },
      _count: true,
    });
    expect(batch.cost).toBe(sum._sum.price ?? 0n);
    expect(batch.validCount).toBe(sum._count);
    const consume = await this.t.prisma.balanceLog.findMany({ where: { batchId: id, type: BalanceLogType.CONSUME } });
    expect(consume.map((l) => l.amount)).toEqual(batch.cost > 0n ? [-batch.cost] : []);
    return batch;
  }

  async expectLedgersReplay() {
    for (const id of this.touched) {
      const check = await verifyLedger(this.t.prisma, id);
      expect(check, `ledger of user ${id}`).toMatchObject({ ok: true, firstMismatch: null });
    }
  }

  /** The BullMQ queue of that name, as the app sees it (same Redis prefix). */
  queue(name: string): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.t.redis, prefix: bullPrefix(this.t.config.REDIS_PREFIX) });
      this.queues.set(name, q);
    }
    return q;
  }

  /** The batch's job in that queue (its id names the batch's job key: id and creation time). */
  async job(queue: string, batchId: string) {
    const key = (await batchJobKeys(this.t.prisma, [batchId])).get(batchId);
    return key === undefined ? undefined : this.queue(queue).getJob(batchJobId(queue as QueueName, key));
  }

  async close() {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  /** Puts a batch in a status directly (what the workers would do), for the transitions that start there. */
  async setStatus(batchId: string, status: BatchStatus) {
    await this.t.prisma.messageBatch.update({ where: { id: BigInt(batchId) }, data: { status } });
  }
}

export const smsContent = (text = "Hello from the test") => ({ product: ProductCode.SMS, text });

/** A mode 2 submission body. */
export function multiple(w: BatchWorld, numbers: string[], extra: Record<string, unknown> = {}) {
  return { productId: w.productId, taskType: 2, submitMode: 2, numbers, content: smsContent(), ...extra };
}

export const post = <T = unknown>(
  t: TestContext,
  url: string,
  token: string | undefined,
  body: unknown,
  o: CallOptions = {},
) => call<T>(t.app, "POST", url, { token, body, lang: "en", ...o });

export const get = <T = unknown>(
  t: TestContext,
  url: string,
  token: string | undefined,
  query: Record<string, string> = {},
  o: CallOptions = {},
) => call<T>(t.app, "GET", url, { token, query, lang: "en", ...o });
