// Prometheus metrics of a worker process, read at the ops server's GET /metrics (ops-server.ts).
//
// Labels are bounded: queue name, channel kind (smpp, rcs, whatsapp), product (rcs, ws, sms), job status. Never a
// batch, recipient, channel id, number or text. Counting costs an increment on a child bound once per chunk or job;
// what only Redis or the adapters know (queue depths, SMPP windows) is read when Prometheus scrapes, not kept up.
import { PRODUCT_SLUG, type ProductCode, QUEUE, type QueueName } from "@switchboard/contracts";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** The channel kinds that send (packages/channels providers.ts). */
const CHANNEL_KINDS = ["smpp", "rcs", "whatsapp"] as const;

/** Job states whose size is worth watching: a backlog, what is running, what waits for later, what gave up. */
const DEPTH_STATES = ["waiting", "active", "delayed", "failed"] as const;
type DepthState = (typeof DEPTH_STATES)[number];

/** Seconds: a receipt job takes milliseconds, a chunk of 2000 sends seconds to minutes. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
/** Seconds from the send to its receipt: an SMSC answers in a second, a phone switched off in hours or days. */
const LAG_BUCKETS = [0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400];
/** Seconds a chunk waited for its channel's tokens (one observation per wait). */
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** What the queue-depth gauge reads (JobQueues, and the singles list: DISPATCH_SINGLES, its waiting groups). */
export interface QueueCounts {
  queueNames(): readonly string[];
  counts(name: string, states: readonly DepthState[]): Promise<Record<string, number>>;
}

/** What the SMPP gauges read (AdapterPool): every open SMPP adapter's window. */
export interface SmppWindows {
  smppWindows(): Array<{ bound: boolean; inflight: number; window: number; queued: number }>;
}

/** One channel kind's and product's counters, bound once. */
export interface MessageCounters {
  sent: { inc(n?: number): void };
  failed: { inc(n?: number): void };
  delivered: { inc(n?: number): void };
  undelivered: { inc(n?: number): void };
  lag: { observe(seconds: number): void };
}

/** The product label of a product code ("other" for none or an unknown one). */
export function productLabel(code: number | null | undefined): string {
  return PRODUCT_SLUG[code as ProductCode] ?? "other";
}

export class WorkerMetrics {
  readonly registry = new Registry();
  readonly jobDuration = new Histogram({
    name: "switchboard_job_duration_seconds",
    help: "Job run time per queue and outcome (completed, failed, delayed: to run again later)",
    labelNames: ["queue", "status"] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  readonly messagesSent = new Counter({
    name: "switchboard_messages_sent_total",
    help: "Messages the channel accepted, per channel kind and product",
    labelNames: ["kind", "product"] as const,
    registers: [this.registry],
  });
  readonly messagesFailed = new Counter({
    name: "switchboard_messages_failed_total",
    help: "Messages recorded as not sent (refused for good, or lost in flight), per channel kind and product",
    labelNames: ["kind", "product"] as const,
    registers: [this.registry],
  });
  readonly messagesDelivered = new Counter({
    name: "switchboard_messages_delivered_total",
    help: "Receipts recorded as delivered (or read), per channel kind and product",
    labelNames: ["kind", "product"] as const,
    registers: [this.registry],
  });
  readonly messagesUndelivered = new Counter({
    name: "switchboard_messages_undelivered_total",
    help: "Receipts recorded as not delivered (undeliverable, expired, rejected), per channel kind and product",
    labelNames: ["kind", "product"] as const,
    registers: [this.registry],
  });
  readonly receiptLag = new Histogram({
    name: "switchboard_receipt_lag_seconds",
    help: "Time from a message's send to its final receipt, per channel kind and product",
    labelNames: ["kind", "product"] as const,
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });
  readonly tokenWait = new Histogram({
    name: "switchboard_token_bucket_wait_seconds",
    help: "Time a chunk waited for its channel's throughput tokens, per wait, per channel kind",
    labelNames: ["kind"] as const,
    buckets: WAIT_BUCKETS,
    registers: [this.registry],
  });
  readonly smppReconnects = new Counter({
    name: "switchboard_smpp_reconnects_total",
    help: "SMPP binds made again after a bound link dropped",
    registers: [this.registry],
  });

  constructor() {
    // Every kind and product from 0, so that the first burst of a fresh process shows in rate() and increase()
    // (a series that appears at 400 counts nothing until its next change).
    for (const kind of CHANNEL_KINDS) {
      for (const product of Object.values(PRODUCT_SLUG)) {
        for (const counter of [
          this.messagesSent,
          this.messagesFailed,
          this.messagesDelivered,
          this.messagesUndelivered,
        ]) {
          counter.labels(kind, product).inc(0);
        }
      }
    }
  }

  /** Counters of one channel kind and product, bound once (a chunk counts its writes with plain increments). */
  messages(kind: string, product: number): MessageCounters {
    const p = productLabel(product);
    return {
      sent: this.messagesSent.labels(kind, p),
      failed: this.messagesFailed.labels(kind, p),
      delivered: this.messagesDelivered.labels(kind, p),
      undelivered: this.messagesUndelivered.labels(kind, p),
      lag: this.receiptLag.labels(kind, p),
    };
  }

  /** Receipts recorded: delivered or not, and the lag of each (seconds; null when the send time is unknown). */
  receipts(
    kind: string,
    rows: ReadonlyArray<{ product: number | null; delivered: boolean; lagSeconds: number | null }>,
  ) {
    for (const row of rows) {
      const p = productLabel(row.product);
      (row.delivered ? this.messagesDelivered : this.messagesUndelivered).labels(kind, p).inc();
      if (row.lagSeconds !== null && row.lagSeconds >= 0) this.receiptLag.labels(kind, p).observe(row.lagSeconds);
    }
  }

  /**
   * Queue depths and SMPP window use, read at each scrape. A Redis that does not answer within `timeoutMs` leaves
   * the depths out of that scrape (Prometheus shows a gap) rather than holding the scrape.
   */
  watch(queues: QueueCounts, smpp: SmppWindows, timeoutMs = 2_000): void {
    new Gauge({
      name: "switchboard_queue_jobs",
      help: "Jobs per queue and state (waiting, active, delayed, failed), as Redis holds them",
      labelNames: ["queue", "state"] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const names = queues.queueNames();
        const all = await withTimeout(
          Promise.all(names.map((name) => queues.counts(name, DEPTH_STATES))),
          timeoutMs,
        ).catch(() => null);
        if (all === null) return;
        names.forEach((name, i) => {
          for (const state of DEPTH_STATES) this.labels(name, state).set(all[i]?.[state] ?? 0);
        });
      },
    });
    const windows = () => smpp.smppWindows();
    new Gauge({
      name: "switchboard_smpp_inflight",
      help: "Submits written and not answered yet, over every open SMPP channel of this process",
      registers: [this.registry],
      collect() {
        this.set(windows().reduce((sum, w) => sum + w.inflight, 0));
      },
    });
    new Gauge({
      name: "switchboard_smpp_window",
      help: "Effective SMPP windows (shrunk while throttled), summed over every open SMPP channel of this process",
      registers: [this.registry],
      collect() {
        this.set(windows().reduce((sum, w) => sum + w.window, 0));
      },
    });
    new Gauge({
      name: "switchboard_smpp_queued",
      help: "Messages waiting for a window slot, over every open SMPP channel of this process",
      registers: [this.registry],
      collect() {
        this.set(windows().reduce((sum, w) => sum + w.queued, 0));
      },
    });
    new Gauge({
      name: "switchboard_smpp_links",
      help: "Open SMPP channels of this process, bound or not",
      labelNames: ["bound"] as const,
      registers: [this.registry],
      collect() {
        const all = windows();
        const bound = all.filter((w) => w.bound).length;
        this.labels("true").set(bound);
        this.labels("false").set(all.length - bound);
      },
    });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Every queue a worker process may serve. */
export const QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUE);
