// The scheduler (schedule.ts) is a BullMQ repeatable job: it lives in Redis, created when a worker process
// starts. A Redis that restarts without its data (no persistence, a failover to an empty replica, a flush) loses
// it with every queued job, and nothing would move until some process restarted. Each process checks, every
// scheduleEveryMs, that the repeatable job and this Redis "epoch" marker exist:
//   - the job is re-created when missing;
//   - a missing marker means Redis lost its data: one clear log line, and for RECOVERY_MS the scheduler treats a
//     sending batch without progress for RECOVERY_STALL_MS as stalled (instead of stalledBatchMs), so batches
//     whose chunk jobs were lost resume within seconds. A chunk still running in a process notices its lost
//     lease at its next status check (statusCheckMs) and stops, and its outcomes are written before the wait ends.
import { randomUUID } from "node:crypto";
import { QUEUE } from "@switchboard/contracts";
import type { WorkerDeps } from "./deps";

type Deps = Pick<WorkerDeps, "redis" | "redisPrefix" | "queues" | "logger" | "tuning">;

export const SCHEDULE_JOB = "schedule-tick";
/** How long after a detected loss the short stall rule applies. */
const RECOVERY_MS = 120_000;
/** A sending batch without progress this long is re-planned while recovering. */
export const RECOVERY_STALL_MS = 10_000;

const epochKey = (prefix: string) => `${prefix}epoch`;
export const recoveringKey = (prefix: string) => `${prefix}recovering`;

export class SchedulerGuard {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly deps: Deps) {}

  /** Creates the repeatable job and the epoch marker (if absent), then keeps checking them. */
  async start(): Promise<void> {
    await this.ensureScheduler();
    await this.deps.redis.set(epochKey(this.deps.redisPrefix), randomUUID(), "NX");
    this.timer = setInterval(() => {
      this.running = this.check().catch((err: unknown) =>
        // Redis away: BullMQ and ioredis say so already; the next check tries again.
        this.deps.logger.debug({ err }, "scheduler check failed"),
      );
    }, this.deps.tuning.scheduleEveryMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async ensureScheduler(): Promise<boolean> {
    const queue = this.deps.queues.queue(QUEUE.schedule);
    if (await queue.getJobScheduler(SCHEDULE_JOB)) return false;
    // Upserted: however many processes find it missing at once, there is one.
    await queue.upsertJobScheduler(
      SCHEDULE_JOB,
      { every: this.deps.tuning.scheduleEveryMs },
      { name: QUEUE.schedule, data: {} },
    );
    return true;
  }

  private async check(): Promise<void> {
    if (this.closed) return;
    const { redis, redisPrefix, logger } = this.deps;
    // Only the process that writes the marker back reports the loss (NX): one line, not one per process.
    if (await redis.set(epochKey(redisPrefix), randomUUID(), "NX")) {
      await redis.set(recoveringKey(redisPrefix), "1", "PX", RECOVERY_MS);
      logger.error(
        "Redis lost its data (restarted without persistence?): queued jobs are gone; the scheduler re-plans " +
          `sending batches idle for ${RECOVERY_STALL_MS / 1000} s and re-queues due ones`,
      );
    }
    if (await this.ensureScheduler()) logger.warn("the scheduler's repeatable job was missing: created again");
  }
}
