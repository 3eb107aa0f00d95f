// Delivery receipts arrive one deliver_sm at a time, thousands per second at full speed. They are gathered per
// channel and handed to the delivery-report queue in batches (every flushMs, or at maxReports), so recording
// them costs one job and a few bulk statements per batch instead of a query per receipt.
//
// Each receipt is in the receipt journal before the SMSC has its acknowledgement (receipt-journal.ts), and leaves
// it once its job is enqueued (or once it is recorded with its outcome). A failed enqueue (Redis unreachable)
// keeps the receipts here and tries again on the next tick, up to maxBuffered; beyond that the oldest are dropped
// from memory and the loss is logged, rather than growing without bound (they stay in the journal: another
// process enqueues them once this one has stopped).
import type { DeliveryReport, Logger } from "@switchboard/channels";
import type { DeliveryReportJob } from "@switchboard/contracts";
import type { ReceiptJournal } from "./receipt-journal";

type Report = DeliveryReportJob["reports"][number];

/** A receipt as a delivery-report job carries it; its arrival time is what is recorded as its time. */
export function jobReport(report: DeliveryReport, arrivedAt: number): Report {
  const item: Report = {
    providerMessageId: report.providerMessageId.slice(0, 64),
    status: report.status,
    arrivedAt: arrivals.iso(arrivedAt),
  };
  if (report.errorCode) item.errorCode = report.errorCode.slice(0, 32);
  const done = report.doneAt?.getTime();
  if (done !== undefined && !Number.isNaN(done)) item.doneAt = doneDates.iso(done);
  return item;
}

/**
 * The last time written as ISO text, and its text. Receipts come a window at a time: those of one read share their
 * arrival millisecond, and their done dates (minute resolution) repeat for a minute; formatting each anew was most
 * of jobReport's time.
 */
class IsoMemo {
  private ms = Number.NaN;
  private text = "";

  iso(ms: number): string {
    if (ms !== this.ms) {
      this.text = new Date(ms).toISOString();
      this.ms = ms;
    }
    return this.text;
  }
}

const arrivals = new IsoMemo();
const doneDates = new IsoMemo();

/** A receipt waiting for its job, with its name in the receipt journal. */
interface Item {
  report: Report;
  token: string | undefined;
}

export interface ReportBatcherOptions {
  flushMs: number;
  /** Reports per delivery-report job (the contract allows 5,000). */
  maxReports: number;
  maxBuffered: number;
}

// 50 ms: a receipt that did not ride with its outcome waits at most that long for its job (200 ms before put the
// receipt lag's p95 at 100-265 ms in a 100k dispatch, 48-57 ms since); at full speed that is ~20 jobs a second.
export const DEFAULT_REPORT_BATCHING: ReportBatcherOptions = { flushMs: 50, maxReports: 1_000, maxBuffered: 200_000 };

export class ReportBatcher {
  private readonly buffers = new Map<number, Item[]>();
  private buffered = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly enqueue: (job: DeliveryReportJob) => Promise<void>,
    private readonly logger: Logger,
    private readonly opts: ReportBatcherOptions = DEFAULT_REPORT_BATCHING,
    /** Receipts whose job is enqueued: they leave the receipt journal. */
    private readonly enqueued: (tokens: string[]) => void = () => {},
  ) {}

  push(channelId: number, report: DeliveryReport, arrivedAt = Date.now()): void {
    this.add(channelId, jobReport(report, arrivedAt));
  }

  /** A receipt already in a job's form; `token` names it in the receipt journal. */
  add(channelId: number, report: Report, token?: string): void {
    const item: Item = { report, token };
    let list = this.buffers.get(channelId);
    if (!list) {
      list = [];
      this.buffers.set(channelId, list);
    }
    list.push(item);
    this.buffered++;
    if (this.buffered > this.opts.maxBuffered) this.dropOldest(list);
    if (list.length >= this.opts.maxReports) this.flushSoon(0);
    else this.flushSoon(this.opts.flushMs);
  }

  /** Hands everything buffered to the queue (waits for a flush already running). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.flushAll());
    return this.flushing;
  }

  private flushSoon(delayMs: number): void {
    if (this.timer !== undefined && delayMs > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delayMs);
  }

  private async flushAll(): Promise<void> {
    for (const [channelId, list] of this.buffers) {
      while (list.length > 0) {
        const items = list.slice(0, this.opts.maxReports);
        try {
          await this.enqueue({ channelId, reports: items.map((i) => i.report) });
        } catch (err) {
          this.logger.error({ err, channelId, waiting: list.length }, "delivery reports not enqueued; retrying");
          this.flushSoon(this.opts.flushMs * 5);
          return;
        }
        list.splice(0, items.length);
        this.buffered -= items.length;
        const tokens: string[] = [];
        for (const item of items) if (item.token !== undefined) tokens.push(item.token);
        this.enqueued(tokens);
      }
      this.buffers.delete(channelId);
    }
  }

  private dropOldest(list: Item[]): void {
    list.shift();
    this.buffered--;
    // Once per thousand, so an outage does not also flood the log.
    if (this.dropped++ % 1_000 === 0) {
      this.logger.error({ dropped: this.dropped }, "delivery report buffer full: oldest receipts dropped");
    }
  }
}

/**
 * Receipts as the adapters parse them. Each is journaled at once (with the turn's others: one Redis write; the
 * promise push returns resolves when it has landed, and the adapter acknowledges then), and looked at on the next
 * turn of the event loop, not at once: an SMSC often sends a receipt right behind its submit_sm_resp, in the same
 * TCP read, and the outcome that resp settles reaches its write buffer in a promise callback that runs only after
 * the whole read has been parsed. Then it either rides with that unwritten outcome (`claim`) or goes to the
 * batcher.
 */
export class ReceiptRouter {
  private waiting: Array<[number, DeliveryReport, Report, string | undefined]> = [];

  constructor(
    private readonly claim: (channelId: number, report: DeliveryReport, token: string | undefined) => boolean,
    private readonly batcher: ReportBatcher,
    private readonly journal?: ReceiptJournal,
  ) {}

  /**
   * Its arrival time is taken now: that is the receipt's time (its done date has minute resolution). Resolves
   * once the receipt is journaled (at once without a journal).
   */
  push(channelId: number, report: DeliveryReport): Promise<void> | undefined {
    // Journaled already by its part lookup's script (part-receipts.ts), arrival time and all: nothing to wait for.
    const written = this.journal?.taken(report);
    const item = written?.item ?? jobReport(report, Date.now());
    const journaled = written ? { token: written.token, stored: undefined } : this.journal?.add(channelId, item);
    if (this.waiting.push([channelId, report, item, journaled?.token]) === 1) setImmediate(() => this.route());
    return journaled?.stored;
  }

  /** Routes what is waiting and hands everything batched to the queue. */
  flush(): Promise<void> {
    this.route();
    return this.batcher.flush();
  }

  private route(): void {
    const list = this.waiting;
    this.waiting = [];
    for (const [channelId, report, item, token] of list) {
      if (!this.claim(channelId, report, token)) this.batcher.add(channelId, item, token);
    }
  }
}
