// One live channel adapter per channel per worker process, shared by every chunk this process sends through
// that channel (an SMSC counts binds per system_id, and one bind with a window pipelines better than many).
//
// Built from the channel row: its non-secret config plus its decrypted credentials. When the row changes
// (updatedAt moves: an admin edited the settings or the throughput) the next acquire builds a new adapter and the
// old one is closed once the chunks using it let go of it, so nothing in flight is cut off. Adapters stay open
// while idle: delivery receipts keep arriving on the bind long after the chunk that sent the messages is done.
import {
  type ChannelAdapter,
  canSend,
  createChannelAdapter,
  type DeliveryReport,
  decryptSecrets,
  type EgressPolicy,
  type egressAgent,
  type InboundMessage,
  type Logger,
  type ProviderAdapter,
  type SmppAdapter,
  type SmppConfigInput,
} from "@switchboard/channels";
import { ActiveStatus } from "@switchboard/contracts";
import { type PrismaClient, queryRows } from "@switchboard/db";

/** Why a channel cannot take messages now; `retryable` says whether waiting can help. */
export class ChannelUnusable extends Error {
  constructor(
    /** Short machine-readable reason; a batch it ends stores the matching batch.failure.* message key. */
    readonly reason: "channel_missing" | "channel_paused" | "channel_kind_unsupported" | "channel_config_invalid",
    readonly retryable: boolean,
  ) {
    super(`channel unusable: ${reason}`);
    this.name = "ChannelUnusable";
  }
}

export interface PooledChannel {
  id: number;
  /** The channel's kind (smpp, rcs, whatsapp): what its messages are built as. */
  kind: string;
  /** Messages per second across all workers. */
  throughput: number;
  /** The adapter's window of outstanding submits: how many sends are worth keeping in flight. */
  window: number;
  adapter: ChannelAdapter;
}

interface Entry extends PooledChannel {
  updatedAt: number;
  users: number;
  stale: boolean;
}

export interface AdapterPoolOptions {
  prisma: PrismaClient;
  /** The 32-byte CHANNEL_SECRET_KEY. */
  secretKey: Buffer;
  logger: Logger;
  /** Every adapter's connections obey it: a channel's host is a tenant admin's input. */
  egress: EgressPolicy;
  /** Receives every delivery receipt of every adapter (a promise: the SMSC's acknowledgement waits for it). */
  onReport: (channelId: number, report: DeliveryReport) => undefined | Promise<void>;
  /** Receives the users' messages SMPP binds take (a promise: the SMSC's acknowledgement waits for it). */
  onInbound?: (channelId: number, message: InboundMessage) => Promise<void>;
  /** SMPP timings that are not channel settings (submit timeout, reconnect backoff); the adapter's defaults else. */
  smpp?: Partial<SmppConfigInput>;
  /** HTTP channels' client: one keep-alive pool per process, connecting through the egress policy. */
  dispatcher: ReturnType<typeof egressAgent>;
  /** An SMPP link of any channel bound again after a drop (metrics). */
  onSmppReconnect?: () => void;
  /**
   * What an SMPP adapter shares with every process bound to its SMSC account (receiptAccount): the account's
   * highest message id, to see the SMSC's ids start again (id-restarts.ts), where long messages' part receipts
   * are folded (part-receipts.ts), and its binds held (smpp-binds.ts).
   */
  smppShared?: (account: string, channelId: number) => SmppShared;
}

/** The shared state an SMPP adapter takes (adapter.ts, useSharedState). */
export type SmppShared = Parameters<SmppAdapter["useSharedState"]>[0];

/**
 * The provider account a channel's messages and receipts belong to. An SMSC hands a receipt to any receiver bind
 * of the account (same host, port and system id), whichever channel sent the message: channels sharing an account
 * share message ids (the same rule in SQL: delivery-report.ts, `accountChannels`). Other kinds: the channel alone.
 */
export function receiptAccount(channelId: number, kind: string, config: unknown): string {
  const c = (config ?? {}) as { host?: unknown; port?: unknown; systemId?: unknown };
  if (kind !== "smpp" || c.host === undefined) return `channel:${channelId}`;
  return `smpp:${String(c.host)}:${String(c.port)}:${String(c.systemId)}`;
}

export class AdapterPool {
  private readonly live = new Map<number, Entry>();
  private readonly accounts = new Map<number, string>();
  private readonly retiring = new Set<Entry>();
  private closed = false;

  constructor(private readonly opts: AdapterPoolOptions) {}

  /** The channel's adapter for one chunk; give it back with release(). */
  async acquire(channelId: number): Promise<PooledChannel> {
    if (this.closed) throw new Error("adapter pool is closed");
    // Once per chunk or group of single sends: on the sending path, so without Prisma (queryRows).
    const [row] = await queryRows(this.opts.prisma)<
      Array<{
        id: number;
        tenantId: number;
        kind: string;
        status: number;
        config: unknown;
        secrets: string;
        throughput: number;
        updatedAt: Date;
      }>
    >`SELECT id, "tenantId", kind, status, config, secrets, throughput, "updatedAt" FROM channels WHERE id = ${channelId}`;
    if (!row) throw new ChannelUnusable("channel_missing", false);
    const account = receiptAccount(channelId, row.kind, row.config);
    this.accounts.set(channelId, account);
    if (row.status !== ActiveStatus.NORMAL) throw new ChannelUnusable("channel_paused", true);
    if (!canSend(row.kind)) throw new ChannelUnusable("channel_kind_unsupported", false);

    const current = this.live.get(channelId);
    // "<=": a read that raced with an edit must not swap the newer adapter back for an older one.
    if (current && row.updatedAt.getTime() <= current.updatedAt) {
      current.users++;
      return current;
    }
    if (current) this.retire(current);

    let built: ProviderAdapter;
    try {
      const secrets = decryptSecrets(this.opts.secretKey, row.tenantId, row.secrets);
      built = createChannelAdapter(row.kind, row.config as Record<string, unknown>, secrets, {
        logger: this.opts.logger,
        egress: this.opts.egress,
        dispatcher: this.opts.dispatcher,
        ...(this.opts.smpp ? { smpp: this.opts.smpp } : {}),
        ...(this.opts.onSmppReconnect ? { onSmppReconnect: this.opts.onSmppReconnect } : {}),
      });
      // Before its first bind completes (the connect is under way, its answer comes on a later turn).
      if (row.kind === "smpp" && this.opts.smppShared) {
        (built.adapter as SmppAdapter).useSharedState(this.opts.smppShared(account, channelId));
      }
    } catch (err) {
      this.opts.logger.error({ err, channelId }, "channel settings or credentials unreadable");
      throw new ChannelUnusable("channel_config_invalid", false);
    }
    const { adapter, window } = built;
    adapter.onReport((report) => this.opts.onReport(channelId, report));
    const onInbound = this.opts.onInbound;
    if (onInbound) adapter.onInbound?.((message) => onInbound(channelId, message));
    const entry: Entry = {
      id: channelId,
      throughput: row.throughput,
      kind: row.kind,
      window,
      adapter,
      updatedAt: row.updatedAt.getTime(),
      users: 1,
      stale: false,
    };
    this.live.set(channelId, entry);
    this.opts.logger.info({ channelId }, "channel adapter opened");
    return entry;
  }

  /** Whether this channel's adapter is open here (bound, for SMPP). */
  isOpen(channelId: number): boolean {
    return this.live.has(channelId);
  }

  /** The receipt account of a channel this pool has opened (see receiptAccount). */
  accountOf(channelId: number): string {
    return this.accounts.get(channelId) ?? `channel:${channelId}`;
  }

  /** The window of every open SMPP adapter (metrics: read at each scrape). */
  smppWindows(): Array<{ bound: boolean; inflight: number; window: number; queued: number }> {
    const out = [];
    for (const entry of [...this.live.values(), ...this.retiring]) {
      const adapter = entry.adapter as Partial<SmppAdapter>;
      if (entry.kind !== "smpp" || adapter.stats === undefined) continue;
      const { bound, inflight, window, queued } = adapter.stats();
      out.push({ bound, inflight, window, queued });
    }
    return out;
  }

  release(channel: PooledChannel): void {
    const entry = channel as Entry;
    entry.users--;
    if (entry.stale && entry.users === 0) void this.closeEntry(entry);
  }

  /** Closes every adapter (each drains what it has in flight first). Call after the workers stopped. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.live.values(), ...this.retiring];
    this.live.clear();
    await Promise.all(all.map((e) => this.closeEntry(e)));
    // The adapters never close an injected client; it is the pool's.
    await this.opts.dispatcher.close();
  }

  private retire(entry: Entry): void {
    this.live.delete(entry.id);
    entry.stale = true;
    this.opts.logger.info({ channelId: entry.id }, "channel settings changed: replacing its adapter");
    if (entry.users === 0) void this.closeEntry(entry);
    else this.retiring.add(entry);
  }

  private async closeEntry(entry: Entry): Promise<void> {
    this.retiring.delete(entry);
    try {
      await entry.adapter.close();
    } catch (err) {
      this.opts.logger.error({ err, channelId: entry.id }, "closing a channel adapter failed");
    }
  }
}
