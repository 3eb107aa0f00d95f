// Which worker processes hold a bind of each SMSC account. SMSCs limit binds per account (often 1-4): with more
// worker processes than that, some are refused. A chunk whose channel cannot bind here goes to another process
// (dispatch-chunk.ts) only while another process holds a bind of the account, so someone can send it; when none
// does, the refusal is the channel's own (an SMSC that answers even a wrong password "bind failed"), and the chunk
// fails and retries as any channel refusing for now.
//
// In Redis per account (receiptAccount): `smpp-binds:<account>`, a sorted set of the transmitting binds held, one
// member per adapter (process owner and a serial), scored with until when it counts. Written when a bind is made and
// dropped, and every beatMs for every bind held; a killed process's members lapse after ttlMs by themselves.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "@switchboard/channels";
import { type RedisConnection, slotGroup } from "@switchboard/domain/redis";

export interface SmppBindsOptions {
  beatMs: number;
  ttlMs: number;
}

export const DEFAULT_SMPP_BINDS: SmppBindsOptions = { beatMs: 5_000, ttlMs: 15_000 };

/** What an SMPP adapter says of its transmitting bind (adapter.ts, SmppBindPresence). */
export interface BindPresence {
  up(): void;
  down(): void;
}

export class SmppBinds {
  private readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private serial = 0;
  /** This process's binds held: member -> account. */
  private readonly held = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly opts: SmppBindsOptions = DEFAULT_SMPP_BINDS,
  ) {}

  private key(account: string): string {
    // One pipeline writes every account's key: on a cluster they share one hash tag ({sb:smpp-binds}:<account>).
    return `${slotGroup(this.redis, `${this.prefix}smpp-binds`)}:${account}`;
  }

  /** The presence of one adapter's transmitting bind of the account. */
  of(account: string): BindPresence {
    const member = `${this.owner}:${(this.serial++).toString(36)}`;
    return {
      up: () => {
        this.held.set(member, account);
        this.write([[member, account]]);
        this.start();
      },
      down: () => {
        if (!this.held.delete(member)) return;
        this.redis.zrem(this.key(account), member).catch((err: unknown) => this.failed(err));
      },
    };
  }

  /** Whether another process holds a bind of the account now. */
  async heldElsewhere(account: string): Promise<boolean> {
    const members = await this.redis.zrangebyscore(this.key(account), `(${Date.now()}`, "+inf");
    return members.some((member) => !member.startsWith(`${this.owner}:`));
  }

  /** Stops beating; the adapters' own down() (on close) removed their binds. */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.write([...this.held]), this.opts.beatMs);
    this.timer.unref();
  }

  private write(binds: Array<[string, string]>): void {
    if (binds.length === 0) return;
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const [member, account] of binds) {
      const key = this.key(account);
      pipeline.zadd(key, now + this.opts.ttlMs, member);
      pipeline.zremrangebyscore(key, "-inf", now);
      pipeline.pexpire(key, this.opts.ttlMs * 2);
    }
    pipeline.exec().then(
      () => {
        this.failing = false;
      },
      (err: unknown) => this.failed(err),
    );
  }

  private failed(err: unknown): void {
    if (!this.failing) this.logger.warn({ err }, "SMPP binds held not shared; a chunk refused here may fail");
    this.failing = true;
  }
}
