// A Lua script whose answer the caller can have in the same event-loop turn. The SMPP receipts of a TCP read are
// looked up and journaled by one script (part-receipts.ts), and each deliver_sm is acknowledged only once that
// script has run (receipt-journal.ts: an acknowledged receipt is never only in memory). Through an ordinary
// connection the answer arrives a turn later; in a process that is also sending thousands of messages a second a
// turn is milliseconds long, and the SMSC, which keeps at most a window of unacknowledged deliver_sm per session,
// then hands out receipts at about a window per turn: slower than the messages go out, so receipts trail them by
// seconds (docs/benchmarks.md, issue 19). Here the script goes to a thread with a Redis connection of its own, and
// the calling thread blocks until its answer is back (Atomics.wait; the synckit pattern) for at most `waitMs`: the
// wait is one Redis round trip (under a millisecond for a window of 100 receipts), after which the read's
// receipts are acknowledged at once. An answer that takes longer (Redis away, a failover) is not waited for: it settles the promise later, as
// an ordinary connection would, so nothing is lost or run twice and the event loop is never held for long.
//
// The thread takes a while to start (loading its code and connecting: 0.4 s on an idle 2-core machine, 0.7 s on a
// busy one, more under tsx). It is started as soon as an SMPP adapter opens (prepare(), before its binds are up), and
// nothing waits for it until its connection is ready: a wait could not be answered then, and each one held the event
// loop for the whole waitMs, sends and all, while the SMSC held the receipts behind its window (the first receipts of
// a fresh process trailed their messages by 0.5-2 s on a busy machine, docs/benchmarks.md, session 21).
//
// The thread's file sits next to this one: redis-thread.worker.ts under tsx (dev, tests: the thread needs the tsx
// loader too, found from here) or redis-thread.worker.js beside the workers' bundle (scripts/build.ts).
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Logger } from "@switchboard/channels";
import { type RedisConnection, type RedisScript, type RedisSettings, runScript } from "@switchboard/domain/redis";

export interface ScriptRequest {
  id: number;
  script: string;
  sha: string;
  keys: string[];
  args: Array<string | number>;
}

export type ScriptAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** Longest the calling thread waits for an answer before it lets the answer come later (see the header). */
export const DEFAULT_WAIT_MS = 20;

const ext = extname(fileURLToPath(import.meta.url));
const workerFile = new URL(`./redis-thread.worker${ext}`, import.meta.url);
const execArgv = ext === ".ts" ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];

/** The running thread: its port, and the state it shares (SIGNAL_ANSWERED, SIGNAL_READY). */
interface Started {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
}

/** The shared state's slots: a counter of answers posted (bumped and notified per answer), and 1 while the thread's
 * connection is ready. */
export const SIGNAL_ANSWERED = 0;
export const SIGNAL_READY = 1;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class RedisThread {
  /** Started by the first script (a process that never takes an SMPP receipt never starts it). */
  private started: Started | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  /** The thread ended (it should not): scripts go through `fallback`, answered a turn later as before. */
  private dead = false;
  private closed = false;

  constructor(
    private readonly settings: RedisSettings,
    /** The process's ordinary connection, for when the thread is gone. */
    private readonly fallback: RedisConnection,
    private readonly logger: Logger,
    private readonly waitMs = DEFAULT_WAIT_MS,
  ) {}

  /** Starts the thread now (an SMPP adapter is opening: its receipts will come through here shortly). */
  prepare(): void {
    if (!this.dead && !this.closed) this.started ??= this.start();
  }

  private start(): Started {
    const signal = new SharedArrayBuffer(8);
    const { port1, port2 } = new MessageChannel();
    // Answers that come after the wait (or to a call that did not wait) arrive as messages.
    port1.on("message", (answer: ScriptAnswer) => this.settle(answer));
    port1.unref();
    const { REDIS_URL, REDIS_CLUSTER_NODES } = this.settings;
    const worker = new Worker(workerFile, {
      execArgv,
      workerData: { settings: { REDIS_URL, REDIS_CLUSTER_NODES }, port: port2, signal },
      transferList: [port2],
    });
    worker.unref();
    worker.on("error", (err) => this.fail(err));
    worker.once("exit", (code) => this.fail(new Error(`redis thread exited (code ${code})`)));
    return { worker, port: port1, signal: new Int32Array(signal) };
  }

  /**
   * Runs the script on the thread's connection. With `wait`, blocks this thread until the answer is back (at most
   * waitMs), so the promise is settled when this returns (its callbacks run in this turn's microtasks).
   */
  run({ script, sha }: RedisScript, keys: string[], args: Array<string | number>, wait: boolean): Promise<unknown> {
    if (this.dead) return runScript(this.fallback, { script, sha }, keys, args);
    this.started ??= this.start();
    const { port, signal } = this.started;
    const id = ++this.nextId;
    const promise = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    port.postMessage({ id, script, sha, keys, args } satisfies ScriptRequest);
    // Redis away (the process's own connection says so): the answer will wait for the reconnect, not for us. The
    // thread still starting or reconnecting: the same.
    if (!wait || this.fallback.status !== "ready" || Atomics.load(signal, SIGNAL_READY) !== 1) return promise;
    return this.block(id, port, signal, promise);
  }

  /** Blocks until request `id` is answered or waitMs has passed. */
  private block(id: number, port: MessagePort, signal: Int32Array, promise: Promise<unknown>): Promise<unknown> {
    let seen = Atomics.load(signal, SIGNAL_ANSWERED);
    const deadline = performance.now() + this.waitMs;
    while (this.pending.has(id)) {
      // Answers already posted are taken first: the counter may have moved before `seen` was read.
      let message = receiveMessageOnPort(port);
      while (message !== undefined) {
        this.settle(message.message as ScriptAnswer);
        message = receiveMessageOnPort(port);
      }
      if (!this.pending.has(id)) break;
      const left = deadline - performance.now();
      if (left <= 0) break;
      Atomics.wait(signal, SIGNAL_ANSWERED, seen, left);
      seen = Atomics.load(signal, SIGNAL_ANSWERED);
    }
    return promise;
  }

  /** Ends the thread once its pending answers are in (at most closeWaitMs); what is still pending then fails. */
  async close(closeWaitMs = 2_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const until = Date.now() + closeWaitMs;
    while (this.pending.size > 0 && !this.dead && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (this.started) {
      this.started.port.close();
      await this.started.worker.terminate();
    }
    this.fail(new Error("redis thread closed"));
  }

  private settle(answer: ScriptAnswer): void {
    const pending = this.pending.get(answer.id);
    if (pending === undefined) return;
    this.pending.delete(answer.id);
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(new Error(answer.error));
  }

  private fail(err: Error): void {
    if (!this.dead && !this.closed) {
      this.logger.error({ err }, "redis thread ended: its scripts go through the ordinary connection");
    }
    this.dead = true;
    // Whether they ran is unknown: their callers treat them as failed (receipts: the SMSC delivers them again).
    for (const pending of this.pending.values()) pending.reject(err);
    this.pending.clear();
  }
}
