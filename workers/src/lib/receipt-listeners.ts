// SMSCs hold a receipt until a receiver bind of the account takes it. The adapter pool opens a channel's adapter
// (and binds it) only when a chunk sends over it, so after a restart, or once a channel's batches have gone out,
// receipts would wait at the SMSC until some unrelated batch used the channel again. This keeps every SMPP
// channel that sent anything within the receipt window open in this process, checked every `everyMs`: its
// receipts come in whether or not a batch is sending. It also starts the receipt journal's heartbeat, with which
// this process takes over the receipts a dead process had acknowledged but not enqueued (receipt-journal.ts).
import { ActiveStatus } from "@switchboard/contracts";
import { ChannelUnusable } from "./adapter-pool";
import type { WorkerDeps } from "./deps";

type Deps = Pick<WorkerDeps, "prisma" | "adapters" | "logger" | "outages"> &
  Partial<Pick<WorkerDeps, "receiptJournal">>;

/** As far back as a message can still get its receipt (an SMS's validity period is days). */
const RECEIPT_WINDOW = "7 days";

export class ReceiptListeners {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly deps: Deps,
    private readonly everyMs: number,
    /** Only these channels (a test sharing its database with others); all by default. */
    private readonly only?: ReadonlySet<number>,
  ) {}

  start(): void {
    this.deps.receiptJournal?.start();
    this.tick();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private tick(): void {
    if (this.closed) return;
    this.running = this.openListeners()
      .catch((err: unknown) => {
        // A lost database is the outage's line (at a bounded rate); anything else is said here.
        if (!this.deps.outages.report(err))
          this.deps.logger.warn({ err }, "receipt listeners: channel check failed; retrying");
      })
      .finally(() => {
        if (!this.closed) this.timer = setTimeout(() => this.tick(), this.everyMs);
      });
  }

  /** Opens (binds) the adapters of the SMPP channels that sent within the receipt window, where not open yet. */
  private async openListeners(): Promise<void> {
    const channels = await this.deps.prisma.$queryRaw<Array<{ id: number }>>`
      SELECT c.id FROM channels c
      WHERE c.kind = 'smpp' AND c.status = ${ActiveStatus.NORMAL}
        AND EXISTS (SELECT 1 FROM recipients r
                    WHERE r."channelId" = c.id AND r."sentAt" > now() - ${RECEIPT_WINDOW}::interval)`;
    for (const { id } of channels) {
      if (this.closed || this.deps.adapters.isOpen(id) || (this.only && !this.only.has(id))) continue;
      try {
        this.deps.adapters.release(await this.deps.adapters.acquire(id));
        this.deps.logger.info({ channelId: id }, "channel bound to take its pending receipts");
      } catch (err) {
        // Paused, removed or misconfigured meanwhile: nothing to listen on.
        if (!(err instanceof ChannelUnusable)) throw err;
      }
    }
  }
}
