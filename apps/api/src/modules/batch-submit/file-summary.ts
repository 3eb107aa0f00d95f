// Reading and sorting a whole batch file for the pre-submit check, in worker threads: a million-row file (or an
// XLSX that takes seconds to parse) never holds the API's event loop.
//
// A small pool: at most SUMMARY_THREADS threads, started on demand (starting one costs most of a second: the
// contracts and the numbering metadata load), kept for SUMMARY_IDLE_MS after their last file, one file at a
// time each; further files wait their turn. A refusal thrown in a thread comes back as the same AppError. When
// the caller's signal aborts (the client left), a waiting file leaves the queue and a running one's thread is
// terminated (a new one is started for the next file).
//
// The thread's file sits next to this one: file-summary.worker.ts under tsx (dev, tests: the thread needs the
// tsx loader too, found from here rather than from the working directory) or file-summary.worker.js once
// compiled.
import type { ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { BATCH_FILE_MAX_NUMBERS, type BatchContent, type MessageKey, type MessageParams } from "@switchboard/contracts";
import type { NumberReading } from "@switchboard/domain/batches/number-sorter";
import type { NumberTally } from "@switchboard/domain/batches/number-tally";
import { AppError } from "../../lib/errors";

/** Threads reading files at once (the API's host has few cores; a thread may keep one busy for seconds). */
export const SUMMARY_THREADS = 2;
/** How long an idle thread is kept for the next file. */
export const SUMMARY_IDLE_MS = 60_000;
/** Heap of one thread: a million numbers sorted, plus an XLSX's shared strings at their bound, fit well. */
const THREAD_HEAP_MB = 1024;

export interface SummaryRequest {
  absPath: string;
  reading: NumberReading;
  maxNumbers: number;
  /** Numbers with an open WhatsApp window and its channels, when the content needs one (counted per country). */
  openWindows?: Array<[string, number[]]>;
  /** The customer's opt-out list (counted per country). */
  optedOut?: string[];
  /** A personalised batch: its content and the variables it uses (each row filled and priced as it is read). */
  personalised?: { content: BatchContent; variables: string[] };
}

export type SummaryReply =
  | { ok: true; tally: NumberTally }
  | { ok: false; status: number; key: MessageKey; params: MessageParams }
  /** Anything else that went wrong (the file vanished...): a 500 for the caller, the thread stays usable. */
  | { ok: false; failure: string };

const ext = extname(fileURLToPath(import.meta.url));
const workerFile = new URL(`./file-summary.worker${ext}`, import.meta.url);
const execArgv = ext === ".ts" ? ["--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] : [];

interface Thread {
  worker: Worker;
  state: "busy" | "idle" | "gone";
  idleTimer: NodeJS.Timeout | null;
}

const idle: Thread[] = [];
let live = 0;
const waiting: Array<() => void> = [];

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

function start(): Thread {
  live += 1;
  const worker = new Worker(workerFile, { execArgv, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  const thread: Thread = { worker, state: "busy", idleTimer: null };
  // A thread that dies at work fails its file (run answers its error); one that dies idle (it should not) just
  // leaves the pool, and its error must not go unheard (an "error" without a listener would end the process).
  worker.on("error", () => {});
  worker.once("exit", () => {
    if (thread.state === "idle") retire(thread);
  });
  return thread;
}

/** Ends a thread's life in the pool (terminated, or already dead) and lets a waiting file start one. */
function retire(thread: Thread): void {
  if (thread.state === "gone") return;
  if (thread.state === "idle") idle.splice(idle.indexOf(thread), 1);
  if (thread.idleTimer) clearTimeout(thread.idleTimer);
  thread.state = "gone";
  live -= 1;
  void thread.worker.terminate();
  waiting.shift()?.();
}

function park(thread: Thread): void {
  thread.state = "idle";
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => retire(thread), SUMMARY_IDLE_MS);
  thread.idleTimer.unref();
  idle.push(thread);
  waiting.shift()?.();
}

/** An idle thread, a new one, or (all busy) the first one freed; rejects if the signal aborts while waiting. */
async function acquire(signal?: AbortSignal): Promise<Thread> {
  for (;;) {
    const ready = idle.pop();
    if (ready) {
      if (ready.idleTimer) clearTimeout(ready.idleTimer);
      ready.idleTimer = null;
      ready.state = "busy";
      ready.worker.ref();
      return ready;
    }
    if (live < SUMMARY_THREADS) return start();
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = waiting.indexOf(wake);
        if (i >= 0) waiting.splice(i, 1);
        reject(abortError(signal!));
      };
      const wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      waiting.push(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

function run(thread: Thread, request: SummaryRequest, signal?: AbortSignal): Promise<NumberTally> {
  const { worker } = thread;
  return new Promise((resolve, reject) => {
    const done = (keep: boolean, answer: () => void) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      signal?.removeEventListener("abort", onAbort);
      if (keep) park(thread);
      else retire(thread);
      answer();
    };
    const onMessage = (reply: SummaryReply) =>
      done(true, () => {
        if (reply.ok) resolve(reply.tally);
        else if ("failure" in reply) reject(new Error(`file summary failed: ${reply.failure}`));
        else reject(new AppError(reply.status, reply.key, reply.params));
      });
    const onError = (err: Error) => done(false, () => reject(err));
    const onExit = (code: number) => done(false, () => reject(new Error(`file summary thread exited (${code})`)));
    const onAbort = () => done(false, () => reject(abortError(signal!)));
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.postMessage(request);
  });
}

/**
 * Reads the numbers of a stored batch file and sorts them (the same reader and sorter as a submission) in a
 * worker thread; answers the counts, or throws the file's refusal.
 */
export async function summariseNumberFile(
  absPath: string,
  reading: NumberReading,
  signal?: AbortSignal,
  maxNumbers = BATCH_FILE_MAX_NUMBERS,
  open?: ReadonlyMap<string, ReadonlySet<number>>,
  optedOut?: string[],
  personalised?: SummaryRequest["personalised"],
): Promise<NumberTally> {
  if (signal?.aborted) throw abortError(signal);
  const thread = await acquire(signal);
  if (signal?.aborted) {
    park(thread);
    throw abortError(signal);
  }
  const openWindows = open && [...open].map(([phone, on]): [string, number[]] => [phone, [...on]]);
  return run(
    thread,
    {
      absPath,
      reading,
      maxNumbers,
      ...(openWindows ? { openWindows } : {}),
      ...(optedOut ? { optedOut } : {}),
      ...(personalised ? { personalised } : {}),
    },
    signal,
  );
}

/** Aborts when the client's connection closes before its answer was sent (a client that gave up waiting). */
export function disconnectSignal(reply: { raw: ServerResponse }): AbortSignal {
  const gone = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
