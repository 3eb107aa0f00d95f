// What a single send is checked and priced against, held in this process so that a send costs no query for it:
// the customer's account (never its balance: every send moves it), the tenant's settings, the product, the price
// and channel of one country, the approval of a sender id. Each entry is read once with the same functions the
// other submissions use, then served from memory.
//
// It never outlives a change: triggers on every table it reads NOTIFY `submit_context` on any change, by any code
// path or by hand (prisma/migrations/20261127000000_submit_context_notify), and everything is forgotten at once
// (those tables change seldom; a send reads again what it needs). Entries are trusted only while the LISTEN
// connection is up (a notification sent while it is down is lost), and age out after maxAgeMs as a bound on any
// surprise. Only successes are held: a refusal is read again (and answered by the usual path) every time.
import { ProductCode, TaskType } from "@switchboard/contracts";
import { type Listener, listen, type PrismaClient } from "@switchboard/db";
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
  private readonly entries = new Map<string, { value: unknown; at: number }>();
  /** Bumped by every notification: a value read before a change must not be stored after it. */
  private epoch = 0;
  private live = false;
  private listener: Listener | undefined;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;

  constructor(private readonly opts: SubmitMemoryOptions) {
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.maxEntries = opts.maxEntries ?? 50_000;
  }

  /** Starts listening in the background: until it is live every call reads the database. */
  start(): void {
    this.listener = listen(this.opts.databaseUrl, [CHANNEL], {
      notify: () => this.forget(),
      live: (up) => {
        this.forget();
        this.live = up;
      },
      error: (err) => this.opts.onError?.(err),
    });
  }

  async close(): Promise<void> {
    this.live = false;
    await this.listener?.close();
  }

  /** Drops everything held (a change was notified, or the listener went up or down). */
  forget(): void {
    this.epoch++;
    this.entries.clear();
  }

  private async held<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.entries.get(key);
    if (hit && this.live && Date.now() - hit.at < this.maxAgeMs) return hit.value as T;
    const epoch = this.epoch;
    const value = await load();
    if (value !== null && this.live && epoch === this.epoch) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, at: Date.now() });
    }
    return value;
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
