// The groups of single sends the API's lane hands over (single-lane.ts), popped from their Redis list
// (singlesListKey; @switchboard/contracts DISPATCH_SINGLES says why a list and not a BullMQ queue) and run by
// dispatch-singles.ts, at most `concurrency` at once. One blocking pop per group: a process waiting for work costs
// nothing, and a group pushed is taken at once by whichever process pops first.
//
// A group that fails (the database away, a bug) hands its batches to the usual path as dispatch-batch jobs, with
// their retries; if even that fails, or the process dies with groups popped, the scheduler's tick finds their
// batches (20: due; 21: stalled) as it finds any other.
import { DISPATCH_SINGLES, dispatchSinglesJob, singlesListKey } from "@switchboard/contracts";
import { redisRetryStrategy } from "@switchboard/domain/outage-log";
import { duplicateRedis, type RedisConnection } from "@switchboard/domain/redis";
import { dispatchSingles } from "../jobs/dispatch-singles";
import type { WorkerDeps } from "./deps";

/** Longest one blocking pop waits, in seconds, before the next (a pop that never ends would hide a dead link). */
const POP_WAIT_S = 5;

export class SinglesQueue {
  private readonly conn: RedisConnection;
  private readonly key: string;
  private readonly running = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private stopped = false;
  /** Resolves when a running group ends (the loop waits on it when `concurrency` groups run). */
  private slotFree: (() => void) | undefined;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly concurrency: number,
  ) {
    // Its own connection: a blocking pop holds it until a group comes. Reconnects as the process's others do.
    this.conn = duplicateRedis(deps.redis, { maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy });
    this.conn.on("error", () => undefined); // the main connection's handler already says Redis is gone
    this.key = singlesListKey(deps.redisPrefix);
  }

  start(): void {
    this.loop ??= this.popAll();
  }

  private async popAll(): Promise<void> {
    while (!this.stopped) {
      if (this.running.size >= this.concurrency) {
        await new Promise<void>((resolve) => {
          this.slotFree = resolve;
        });
        continue;
      }
      let popped: [string, string] | null;
      try {
        popped = await this.conn.brpop(this.key, POP_WAIT_S);
      } catch (err) {
        if (this.stopped) return;
        // Redis away: the outage's one line; the connection's reconnects pace the next try.
        if (!this.deps.outages.report(err)) this.deps.logger.warn({ err }, "single sends: pop failed");
        await new Promise((r) => setTimeout(r, 1_000));
        continue;
      }
      // Popped while closing: still run (close() waits for it), so the group is not left to the tick.
      if (popped) this.run(popped[1]);
    }
  }

  private run(entry: string): void {
    const group = (async () => {
      const took = this.deps.metrics.jobDuration;
      const started = performance.now();
      let job: ReturnType<typeof dispatchSinglesJob.parse>;
      try {
        job = dispatchSinglesJob.parse(JSON.parse(entry));
      } catch (err) {
        // Not what the lane writes: nothing to hand back (its batches, if any, are the tick's).
        this.deps.logger.error({ err: { message: (err as Error).message } }, "single sends: unreadable group dropped");
        return;
      }
      try {
        await dispatchSingles(this.deps, job);
        took.labels(DISPATCH_SINGLES, "completed").observe((performance.now() - started) / 1000);
      } catch (err) {
        took.labels(DISPATCH_SINGLES, "failed").observe((performance.now() - started) / 1000);
        if (!this.deps.outages.report(err))
          this.deps.logger.warn(
            { err: { name: (err as Error).name, message: (err as Error).message }, batches: job.batches.length },
            "single sends: group failed; its batches go the usual way",
          );
        await this.deps.queues.dispatchBatches(job.batches.map((b) => b.batchId)).catch((handBackErr: unknown) => {
          if (!this.deps.outages.report(handBackErr))
            this.deps.logger.error(
              { err: handBackErr },
              "single sends: hand-back failed; the scheduler's tick sends them",
            );
        });
      }
    })().finally(() => {
      this.running.delete(group);
      const free = this.slotFree;
      this.slotFree = undefined;
      free?.();
    });
    this.running.add(group);
  }

  /**
   * Stops popping (the pop waiting is cut off with its connection: a group pushed in that very instant is the
   * tick's) and waits for the groups running.
   */
  async close(): Promise<void> {
    this.stopped = true;
    const free = this.slotFree;
    this.slotFree = undefined;
    free?.();
    this.conn.disconnect();
    await this.loop;
    await Promise.all(this.running);
  }
}
