// Mode 1 waits for its one recipient's outcome. Polling the database for it cost every waiting request a query
// every 200 ms and added up to 200 ms to each answer; the workers now publish the batch ids once they have written
// outcomes (sendOutcomesWritten), and a waiting request reads its row when its batch is named. One subscriber per
// API process serves every waiting request. A message can be lost (Redis reconnecting), so each wait also reads
// again at a slow interval, and once more at its deadline. The watch starts before the batch's job is enqueued,
// so the first read waits for the workers' message instead of reading a row they cannot have answered yet.
import { sendOutcomesWritten } from "@switchboard/contracts";
import { duplicateRedis, type RedisConnection } from "@switchboard/domain/redis";

/** Re-read this often even without a message (a lost message costs at most this much). */
const FALLBACK_POLL_MS = 1_000;

/** A mode 1 request's interest in its batch's outcome, registered before the batch's job is enqueued. */
export interface OutcomeWatch {
  readonly key: string;
  /** The workers named the batch since the last read. */
  signalled: boolean;
  wake: (() => void) | undefined;
}

export class OutcomeSignal {
  private readonly waiting = new Map<string, Set<OutcomeWatch>>();
  private readonly subscriber: RedisConnection;
  private started: Promise<unknown> | undefined;

  constructor(
    redis: RedisConnection,
    private readonly redisPrefix: string,
  ) {
    this.subscriber = duplicateRedis(redis, { lazyConnect: true });
    this.subscriber.on("error", () => undefined); // the main connection reports Redis trouble; waits poll meanwhile
    // The workers name every batch one outcome write recorded: "12" or "12,13,17" (a group of single sends).
    this.subscriber.on("message", (_channel, batchIds: string) => {
      for (const batchId of batchIds.split(",")) {
        for (const w of this.waiting.get(batchId) ?? []) {
          w.signalled = true;
          w.wake?.();
        }
      }
    });
  }

  private start() {
    this.started ??= this.subscriber
      .connect()
      .then(() => this.subscriber.subscribe(sendOutcomesWritten(this.redisPrefix)))
      .catch(() => undefined);
    return this.started;
  }

  /**
   * Listens for the batch from now on (subscribed when this resolves, unless Redis is down: the wait then polls).
   * Called before the batch's job is enqueued, nothing the workers publish can come before it, so the wait reads
   * only once they named the batch (or at the slow interval), never on the chance that they already have.
   */
  async watch(batchId: bigint): Promise<OutcomeWatch> {
    await this.start();
    const w: OutcomeWatch = { key: batchId.toString(), signalled: false, wake: undefined };
    const watches = this.waiting.get(w.key);
    if (watches) watches.add(w);
    else this.waiting.set(w.key, new Set([w]));
    return w;
  }

  /**
   * Calls `read` until it returns a value or the deadline passes (then `last`, and returns its answer): whenever
   * the workers name the batch, and every FALLBACK_POLL_MS. Ends the watch.
   */
  async wait<T>(w: OutcomeWatch, deadline: number, read: () => Promise<T | undefined>, last: () => Promise<T>) {
    try {
      for (let polled = false; ; ) {
        if (w.signalled || polled) {
          w.signalled = false;
          const value = await read();
          if (value !== undefined) return value;
        }
        const left = deadline - Date.now();
        if (left <= 0) return last();
        polled = await this.signalOrTimeout(w, Math.min(FALLBACK_POLL_MS, left));
      }
    } finally {
      this.unwatch(w);
    }
  }

  /** Ends a watch that will not be waited on (the batch was not sent now). */
  unwatch(w: OutcomeWatch): void {
    const watches = this.waiting.get(w.key);
    watches?.delete(w);
    if (watches?.size === 0) this.waiting.delete(w.key);
  }

  /** Resolves true when `ms` passed without a signal, false on a signal. */
  private signalOrTimeout(w: OutcomeWatch, ms: number): Promise<boolean> {
    if (w.signalled) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        w.wake = undefined;
        resolve(true);
      }, ms);
      w.wake = () => {
        clearTimeout(timer);
        w.wake = undefined;
        resolve(false);
      };
    });
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
