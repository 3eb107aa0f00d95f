// Mode 1 waits for its one recipient's outcome. Polling the database for it cost every waiting request a query
// every 200 ms and added up to 200 ms to each answer; the workers now publish the batch id once they have written
// outcomes (sendOutcomesWritten), and a waiting request reads its row when its batch is named. One subscriber per
// API process serves every waiting request. A message can be lost (Redis reconnecting), so each wait also reads
// again at a slow interval, and once more at its deadline.
import { sendOutcomesWritten } from "@switchboard/contracts";
import { duplicateRedis, type RedisConnection } from "@switchboard/domain/redis";

/** Re-read this often even without a message (a lost message costs at most this much). */
const FALLBACK_POLL_MS = 1_000;

export class OutcomeSignal {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly subscriber: RedisConnection;
  private started: Promise<unknown> | undefined;

  constructor(
    redis: RedisConnection,
    private readonly redisPrefix: string,
  ) {
    this.subscriber = duplicateRedis(redis, { lazyConnect: true });
    this.subscriber.on("error", () => undefined); // the main connection reports Redis trouble; waits poll meanwhile
    this.subscriber.on("message", (_channel, batchId: string) => {
      for (const wake of this.waiting.get(batchId) ?? []) wake();
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
   * Calls `read` until it returns a value or the deadline passes (then once more, and returns its answer):
   * at once, whenever the workers name the batch, and every FALLBACK_POLL_MS.
   */
  async wait<T>(batchId: bigint, deadline: number, read: () => Promise<T | undefined>, last: () => Promise<T>) {
    await this.start();
    const key = batchId.toString();
    let wake: () => void = () => undefined;
    const wakers = this.waiting.get(key) ?? new Set();
    this.waiting.set(key, wakers);
    try {
      for (;;) {
        // Registered before reading, so a message that comes while the read runs is not missed.
        const signalled = new Promise<void>((resolve) => {
          wake = resolve;
          wakers.add(wake);
        });
        const value = await read();
        if (value !== undefined) return value;
        const left = deadline - Date.now();
        if (left <= 0) return last();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          signalled,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.min(FALLBACK_POLL_MS, left));
          }),
        ]);
        clearTimeout(timer);
        wakers.delete(wake);
      }
    } finally {
      wakers.delete(wake);
      if (wakers.size === 0) this.waiting.delete(key);
    }
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }
}
