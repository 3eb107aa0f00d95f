// Receipts of a long SMS. Each part goes in its own submit_sm, the SMSC answers each with its own message id and
// sends a receipt per part, but the platform knows the message by its first part's id. Parts are tracked from
// their submit_sm_resp (a part's receipt can come back before a later part is even answered), and their receipts
// are folded into one receipt under the first part's id once every part has reported: "delivered" only when every
// part was, else the state of the first part that was not (with its error code); the latest done date.
//
// Held in memory and bounded (maxMessages, maxAgeMs). After a restart, or for a message forgotten on those bounds,
// part receipts pass through as they are: the first part's then stands for the message, and the others find no
// message and are dropped by the worker after its retries. A part receipt seen twice counts once.
import type { DeliveryReport } from "../adapter";

export interface MultipartReceiptsOptions {
  /** Long messages remembered at once; the oldest are forgotten beyond it. */
  maxMessages: number;
  /** How long a long message waits for its parts' receipts (an SMS's validity period is days at most). */
  maxAgeMs: number;
}

export const DEFAULT_MULTIPART_RECEIPTS: MultipartReceiptsOptions = {
  maxMessages: 200_000,
  maxAgeMs: 3 * 24 * 3_600_000,
};

/** One long message: its parts' ids as they are accepted, and what their receipts said so far. */
export class LongMessage {
  readonly ids: Array<string | undefined>;
  readonly reported = new Set<number>();
  worst: DeliveryReport | undefined;
  doneAt: Date | undefined;

  constructor(
    readonly parts: number,
    readonly openedAt: number,
  ) {
    this.ids = new Array<string | undefined>(parts);
  }
}

export class MultipartReceipts {
  private readonly byPartId = new Map<string, { message: LongMessage; index: number }>();
  /** Insertion order is age order: the oldest are forgotten first. */
  private readonly messages = new Set<LongMessage>();

  constructor(private readonly opts: MultipartReceiptsOptions = DEFAULT_MULTIPART_RECEIPTS) {}

  /** A long message whose first part is being submitted. */
  open(parts: number, now = Date.now()): LongMessage {
    this.forgetOld(now);
    const message = new LongMessage(parts, now);
    this.messages.add(message);
    return message;
  }

  /** A part was accepted under this id. */
  accepted(message: LongMessage, index: number, id: string): void {
    if (!this.messages.has(message)) return;
    message.ids[index] = id;
    this.byPartId.set(id, { message, index });
  }

  /** The message was refused (a part failed): its parts' receipts are not waited for. */
  abandon(message: LongMessage): void {
    this.forget(message);
  }

  /**
   * What to report for a receipt: the receipt itself when it is not a tracked part, the folded receipt when it
   * is the last part to report, null while other parts are still to report (or for a part reported already).
   */
  fold(report: DeliveryReport): DeliveryReport | null {
    const part = this.byPartId.get(report.providerMessageId);
    if (!part) return report;
    const { message, index } = part;
    if (message.reported.has(index)) return null;
    message.reported.add(index);
    if (report.status !== "delivered") message.worst ??= report;
    if (report.doneAt && (!message.doneAt || report.doneAt > message.doneAt)) message.doneAt = report.doneAt;
    const firstId = message.ids[0];
    if (message.reported.size < message.parts || firstId === undefined) return null;
    this.forget(message);
    const folded: DeliveryReport = { providerMessageId: firstId, status: message.worst?.status ?? "delivered" };
    if (message.worst?.errorCode) folded.errorCode = message.worst.errorCode;
    if (message.doneAt) folded.doneAt = message.doneAt;
    return folded;
  }

  get size(): number {
    return this.messages.size;
  }

  private forget(message: LongMessage): void {
    this.messages.delete(message);
    for (const id of message.ids) if (id !== undefined) this.byPartId.delete(id);
  }

  private forgetOld(now: number): void {
    for (const message of this.messages) {
      if (this.messages.size < this.opts.maxMessages && now - message.openedAt < this.opts.maxAgeMs) break;
      this.forget(message);
    }
  }
}
