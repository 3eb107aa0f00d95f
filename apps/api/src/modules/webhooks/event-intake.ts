// Provider webhook events are stored before they are acknowledged, and applied later by the workers: a provider
// that saw our 200 never sends the event again, so an event acknowledged and then lost would be lost for good.
//
// Thousands of calls a second each waiting for its own commit would spend the database on commits, so calls are
// gathered for a moment and written by one INSERT (group commit): every call in the group is answered once that
// statement has committed. The workers are woken through Redis after each write (and poll anyway).
import type { PrismaClient } from "@switchboard/db";
import type { RedisConnection } from "@switchboard/domain/redis";

export interface IntakeOptions {
  /** Most events per statement. */
  maxRows: number;
  /** Longest an event waits for others before its statement is sent. */
  maxWaitMs: number;
}

export const DEFAULT_INTAKE: IntakeOptions = { maxRows: 500, maxWaitMs: 2 };

interface Pending {
  channelId: number;
  body: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class EventIntake {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<void>>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly redis: RedisConnection,
    private readonly wakeup: string,
    private readonly opts: IntakeOptions = DEFAULT_INTAKE,
  ) {}

  /** Resolves once the event is committed; rejects when it could not be stored (answer the provider 5xx). */
  store(channelId: number, body: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ channelId, body, resolve, reject });
      if (this.pending.length >= this.opts.maxRows) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.opts.maxWaitMs);
    });
  }

  /** Writes what is waiting and waits for every write in flight (on shutdown). */
  async close(): Promise<void> {
    this.flush();
    await Promise.all(this.inFlight);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const group = this.pending;
    this.pending = [];
    const write = this.write(group).finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  private async write(group: Pending[]): Promise<void> {
    try {
      await this.prisma.$executeRaw`
        INSERT INTO channel_events ("channelId", body)
        SELECT * FROM unnest(${group.map((p) => p.channelId)}::int[], ${group.map((p) => p.body)}::text[])`;
    } catch (err) {
      for (const p of group) p.reject(err);
      return;
    }
    for (const p of group) p.resolve();
    // A lost wake-up only delays the events until the workers' next poll.
    this.redis.publish(this.wakeup, "1").catch(() => undefined);
  }
}
