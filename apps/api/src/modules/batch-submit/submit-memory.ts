// What a single send is checked and priced against, held in this process so that a send costs no query for it:
// the customer's account (never its balance: every send moves it), the tenant's settings, the product, the price
// and channel of one country, the approval of a sender id. Each entry is read once with the same functions the
// other submissions use, then served from memory.
//
// It never outlives a change (lib/notified-memory.ts): triggers on every table it reads NOTIFY `submit_context`
// on any change, by any code path or by hand (prisma/migrations/20261127000000_submit_context_notify), and
// everything is forgotten at once. Only successes are held: a refusal is read again (and answered by the usual
// path) every time.
import { ProductCode, TaskType } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import {
  type BatchProduct,
  type Customer,
  loadSubmitContext,
  type ProductRef,
  resolveProduct,
  type TenantRules,
} from "@switchboard/domain/batches/context";
import { type CountryQuote, quoteBatch } from "@switchboard/domain/batches/quote";
import { assertSenderIdApproved, type SenderIdUse } from "@switchboard/domain/batches/sender-id-usage";
import { AppError } from "@switchboard/domain/errors";
import { NotifiedMemory } from "../../lib/notified-memory";

const CHANNEL = "submit_context";

/** A customer's context without its balance (which is never held: the charge's conditional update decides). */
export interface HeldContext {
  customer: Omit<Customer, "balance">;
  rules: TenantRules;
}

export type ServedQuote = Extract<CountryQuote, { served: true }>;

export interface SubmitMemoryOptions {
  prisma: PrismaClient;
  databaseUrl: string;
  /** Longest an entry is served without reading it again. */
  maxAgeMs?: number;
  /** Most entries held (all are dropped when it is reached: they are cheap to read again). */
  maxEntries?: number;
  onError?: (err: Error) => void;
}

export class SubmitMemory {
  private readonly memory: NotifiedMemory;

  constructor(private readonly opts: SubmitMemoryOptions) {
    // Any change forgets everything: those tables change seldom, and a send reads again what it needs.
    this.memory = new NotifiedMemory({ ...opts, channel: CHANNEL, keysOf: () => null });
  }

  /** Starts listening in the background: until it is live every call reads the database. */
  start(): void {
    this.memory.start();
  }

  close(): Promise<void> {
    return this.memory.close();
  }

  /** Drops everything held (a change was made through this process). */
  forget(): void {
    this.memory.forget(null);
  }

  private held<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    return this.memory.held(key, load);
  }

  /** The customer's account and its tenant's rules (loadSubmitContext's answer; its refusals are thrown). */
  async context(userId: number): Promise<HeldContext> {
    const ctx = await this.held(`ctx:${userId}`, async () => {
      const { customer, rules } = await loadSubmitContext(this.opts.prisma, userId);
      const { balance: _notHeld, ...rest } = customer;
      return { customer: rest, rules } satisfies HeldContext;
    });
    return ctx as HeldContext;
  }

  /** The product a submission names (resolveProduct's answer; its refusals are thrown, never held). */
  async product(tenantId: number, ref: ProductRef): Promise<BatchProduct> {
    const name = ref.productId !== undefined ? `id${ref.productId}` : `code${ref.productCode}`;
    const product = await this.held(`product:${tenantId}:${name}`, () =>
      resolveProduct(this.opts.prisma, tenantId, ref),
    );
    return product as BatchProduct;
  }

  /**
   * One country's price and channel for a message of `units` (quoteBatch's answer for that country), or null
   * when the country is not served (the usual path answers why).
   */
  quote(customerId: number, productId: number, units: number, countryCode: string): Promise<ServedQuote | null> {
    return this.held(`quote:${customerId}:${productId}:${units}:${countryCode}`, async () => {
      const { countries } = await quoteBatch(this.opts.prisma, {
        customerId,
        productId,
        units,
        countryCodes: [countryCode],
        taskType: TaskType.MESSAGE,
      });
      const q = countries.get(countryCode);
      return q?.served ? q : null;
    });
  }

  /** Whether a message may go to the country with the sender id its content names (assertSenderIdApproved). */
  async senderIdApproved(customerId: number, use: SenderIdUse, countryCode: string): Promise<boolean> {
    const named = use.content?.product === ProductCode.SMS ? (use.content.senderId ?? "") : "";
    const ok = await this.held(`sender:${customerId}:${use.taskType}:${countryCode}:${named}`, async () => {
      try {
        await assertSenderIdApproved(this.opts.prisma, customerId, use, [countryCode]);
        return true;
      } catch (err) {
        if (err instanceof AppError) return null;
        throw err;
      }
    });
    return ok === true;
  }
}
