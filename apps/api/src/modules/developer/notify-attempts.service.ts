// Callback attempts (issue 18): the customer's own attempts, newest first, and a resend by hand of an attempt's
// event. Customers only, each for itself: another customer's attempt answers 404 like a missing one.
//
// A resend enqueues the event again on the workers' callback queue (callbackResendJob: the same event and ids,
// its eventId in the data so the body carries it, the body rebuilt from the database when sent); its job id is
// the event's own (`<eventId>-resend`), so one resend per event is queued at a time (409 while it waits or runs).
// Two presses at the same instant would both find no job and both answer 200 for one queued job: the look and
// the add are done under a short claim of that job id (SET NX), so the second press answers 409 too.

import {
  bullQueuePrefix,
  callbackResendJob,
  type NotifyAttemptList,
  type NotifyAttemptListQuery,
  type NotifyResendResult,
  QUEUE,
  UserType,
} from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { isClustered, type RedisConnection } from "@switchboard/domain/redis";
import { Queue } from "bullmq";
import { AppError, conflict, notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { findManagedCustomer } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";

/** Whose attempts a list reads: a customer its own; staff the customer named, if they manage it (else 404). */
async function attemptsOwner(prisma: PrismaClient, p: Principal, userId: number | undefined): Promise<number> {
  if (p.type === UserType.USER) {
    if (userId !== undefined && userId !== p.userId) throw notFound("entity.user");
    return p.userId;
  }
  if (userId === undefined) throw new AppError(400, "validation.required", { field: "userId" });
  const customer = await findManagedCustomer(prisma, p, userId, { id: true });
  return customer.id;
}

export async function listNotifyAttempts(
  prisma: PrismaClient,
  p: Principal,
  q: NotifyAttemptListQuery,
): Promise<NotifyAttemptList> {
  const where = {
    userId: await attemptsOwner(prisma, p, q.userId),
    ...(q.event ? { event: q.event } : {}),
    ...(q.batchId ? { batchId: BigInt(q.batchId) } : {}),
  };
  const [rows, total] = await Promise.all([
    prisma.notifyAttempt.findMany({
      where,
      orderBy: { id: "desc" },
      ...pageArgs(q),
      include: { notifyEvent: { select: { eventId: true } } },
    }),
    prisma.notifyAttempt.count({ where }),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      id: r.id.toString(),
      event: r.event,
      eventId: r.notifyEvent?.eventId ?? null,
      batchId: r.batchId?.toString() ?? null,
      attempt: r.attempt,
      httpStatus: r.httpStatus,
      error: r.error,
      durationMs: r.durationMs,
      manual: r.manual,
      resendable: r.notifyEvent !== null,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

/** What a resend needs of the callback queue: BullMQ's own, or a stand-in in tests. */
export interface CallbackQueue {
  getJob(id: string): Promise<{ getState(): Promise<string>; remove(): Promise<void> } | undefined>;
  add(name: string, data: unknown, opts: { jobId: string }): Promise<unknown>;
  /** Holds the job id while one request looks and adds (false: another request holds it); then released. */
  claim(jobId: string): Promise<boolean>;
  release(jobId: string): Promise<void>;
  close(): Promise<void>;
}

/** Longest a claim outlives a request that died between claiming and releasing it. */
const CLAIM_MS = 10_000;

/** The workers' callback queue on the API's Redis connection (not closed with it: its owner closes that). */
export function bullCallbackQueue(connection: RedisConnection, redisPrefix: string): CallbackQueue {
  const prefix = bullQueuePrefix(redisPrefix, QUEUE.callback, isClustered(connection));
  const queue = new Queue(QUEUE.callback, { connection, prefix });
  const claimKey = (jobId: string) => `${redisPrefix}resend-claim:${jobId}`;
  return {
    getJob: (id) => queue.getJob(id),
    add: (name, data, opts) => queue.add(name, data, opts),
    claim: async (jobId) => (await connection.set(claimKey(jobId), "1", "PX", CLAIM_MS, "NX")) === "OK",
    release: async (jobId) => void (await connection.del(claimKey(jobId))),
    close: () => queue.close(),
  };
}

/** States in which a resend is still to come: a second one is refused (409). */
const PENDING = new Set(["waiting", "delayed", "active", "prioritized", "waiting-children"]);

export async function resendNotifyAttempt(
  prisma: PrismaClient,
  queue: CallbackQueue,
  p: Principal,
  attemptId: string,
): Promise<NotifyResendResult> {
  const attempt = await prisma.notifyAttempt.findFirst({
    where: { id: BigInt(attemptId), userId: p.userId },
    select: { event: true, notifyEvent: true },
  });
  if (!attempt) throw notFound("entity.notify_attempt");
  const event = attempt.notifyEvent;
  if (!event || event.userId !== p.userId) throw new AppError(400, "developer.resend_not_an_event");
  const me = await prisma.user.findUnique({ where: { id: p.userId }, select: { notifyUrl: true } });
  if (!me?.notifyUrl) throw new AppError(400, "developer.resend_no_url");

  const job = callbackResendJob(event);
  if (!(await queue.claim(job.opts.jobId))) throw conflict("developer.resend_queued");
  try {
    const kept = await queue.getJob(job.opts.jobId);
    if (kept) {
      const state = await kept.getState();
      if (PENDING.has(state)) throw conflict("developer.resend_queued");
      // A finished one left behind (a producer keeping jobs): it would block the add.
      await kept.remove().catch(() => undefined);
    }
    await queue.add(job.name, job.data, job.opts);
  } finally {
    await queue.release(job.opts.jobId);
  }
  return {
    eventId: event.eventId,
    event: event.event,
    batchId: event.batchId?.toString() ?? null,
    jobId: job.opts.jobId,
  };
}
