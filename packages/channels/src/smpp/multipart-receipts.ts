// Receipts of a long SMS. Each part goes in its own submit_sm, the SMSC answers each with its own message id and
// sends a receipt per part, but the platform knows the message by its first part's id. Parts are tracked from
// their submit_sm_resp (a part's receipt can come back before a later part is even answered), and their receipts
// are folded into one receipt under the first part's id once every part has reported (foldParts: the one rule).
//
// Where the parts wait is a store:
//   - MemoryPartStore, this process's memory, bounded (maxMessages, maxAgeMs): the adapter alone (the channel test
//     tool, a bench). After a restart, or for a message forgotten on those bounds, part receipts pass through as
//     they are: the first part's then stands for the message, and the others find no message and are dropped by
//     the worker after its retries;
//   - a store shared by every process bound to the SMSC account (the workers': Redis, part-receipts.ts), given to
//     the adapter with useSharedState: the SMSC hands a part's receipt to any receiver bind of the account, so the
//     parts of one message come in on several processes, and a restarted process finds what the others kept.
// A store keeps parts and says when the last one reported; exactly one receipt of a message gets "complete", however
// many processes take its parts at once. A part receipt seen twice counts once.
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

/** A long message whose parts are being submitted, as a store names it. */
export interface LongMessage {
  readonly key: string;
  readonly parts: number;
}

/** What a part's receipt said (its id is the part's, not the message's). */
export type PartReceipt = Omit<DeliveryReport, "providerMessageId">;

/** What a store answers for a receipt. */
export type PartFolding =
  /** Its id is no part the store holds: the receipt stands for its own message. */
  | "not_a_part"
  /** A part whose message still waits for other parts (or a part reported already). */
  | "waiting"
  /** The last part reported: the first part's id and every part's receipt, in part order. */
  | { firstId: string; parts: PartReceipt[] };

export interface PartStore {
  /** A long message of `parts` parts is being submitted (`now`: the memory store's clock, for its bounds). */
  open(parts: number, now?: number): LongMessage;
  /** Part `index` (from 0) was accepted under `id`. */
  accepted(message: LongMessage, index: number, id: string): void;
  /** The message was refused (a part failed): its parts' receipts are not waited for. */
  abandon(message: LongMessage): void;
  /** Keeps the receipt if it is a part's; a store shared by processes answers once the store has it. */
  report(receipt: DeliveryReport): PartFolding | Promise<PartFolding>;
}

/**
 * The receipt of a long message from its parts' receipts: "delivered" only when every part was, else the state of
 * the first part (in part order) that was not, with its error code; the latest done date.
 */
export function foldParts(firstId: string, parts: readonly PartReceipt[]): DeliveryReport {
  const worst = parts.find((part) => part.status !== "delivered");
  let doneAt: Date | undefined;
  for (const part of parts) if (part.doneAt && (!doneAt || part.doneAt > doneAt)) doneAt = part.doneAt;
  const folded: DeliveryReport = { providerMessageId: firstId, status: worst?.status ?? "delivered" };
  if (worst?.errorCode) folded.errorCode = worst.errorCode;
  if (doneAt) folded.doneAt = doneAt;
  return folded;
}

/** What the adapter reports for a receipt: itself, nothing yet (null), or its message's folded receipt. */
function settle(receipt: DeliveryReport, folding: PartFolding): DeliveryReport | null {
  if (folding === "not_a_part") return receipt;
  if (folding === "waiting") return null;
  return foldParts(folding.firstId, folding.parts);
}

/** The adapter's side: a store (this process's memory unless shared state gives another) and the fold rule. */
export class MultipartReceipts {
  constructor(private readonly store: PartStore = new MemoryPartStore()) {}

  /** A long message whose first part is being submitted. */
  open(parts: number): LongMessage {
    return this.store.open(parts);
  }

  /** A part was accepted under this id. */
  accepted(message: LongMessage, index: number, id: string): void {
    this.store.accepted(message, index, id);
  }

  /** The message was refused (a part failed): its parts' receipts are not waited for. */
  abandon(message: LongMessage): void {
    this.store.abandon(message);
  }

  /**
   * What to report for a receipt: the receipt itself when it is not a tracked part, the folded receipt when it
   * is the last part to report, null while other parts are still to report (or for a part reported already). A
   * shared store answers with a promise (one round trip for the receipts of an event-loop turn).
   */
  fold(receipt: DeliveryReport): DeliveryReport | null | Promise<DeliveryReport | null> {
    const folding = this.store.report(receipt);
    return folding instanceof Promise ? folding.then((f) => settle(receipt, f)) : settle(receipt, folding);
  }
}

interface HeldMessage extends LongMessage {
  readonly openedAt: number;
  readonly ids: Array<string | undefined>;
  readonly receipts: Array<PartReceipt | undefined>;
  reported: number;
}

/** Long messages in this process's memory, bounded; a message is forgotten once folded. */
export class MemoryPartStore implements PartStore {
  private readonly byPartId = new Map<string, { message: HeldMessage; index: number }>();
  /** Insertion order is age order: the oldest are forgotten first. */
  private readonly messages = new Map<string, HeldMessage>();
  private next = 0;

  constructor(private readonly opts: MultipartReceiptsOptions = DEFAULT_MULTIPART_RECEIPTS) {}

  open(parts: number, now = Date.now()): LongMessage {
    this.forgetOld(now);
    const message: HeldMessage = {
      key: (this.next++).toString(36),
      parts,
      openedAt: now,
      ids: new Array<string | undefined>(parts),
      receipts: new Array<PartReceipt | undefined>(parts),
      reported: 0,
    };
    this.messages.set(message.key, message);
    return message;
  }

  accepted(message: LongMessage, index: number, id: string): void {
    const held = this.messages.get(message.key);
    if (held === undefined) return;
    held.ids[index] = id;
    this.byPartId.set(id, { message: held, index });
  }

  abandon(message: LongMessage): void {
    const held = this.messages.get(message.key);
    if (held !== undefined) this.forget(held);
  }

  report(receipt: DeliveryReport): PartFolding {
    const part = this.byPartId.get(receipt.providerMessageId);
    if (!part) return "not_a_part";
    const { message, index } = part;
    if (message.receipts[index] !== undefined) return "waiting";
    message.receipts[index] = receipt;
    message.reported++;
    const firstId = message.ids[0];
    if (message.reported < message.parts || firstId === undefined) return "waiting";
    this.forget(message);
    return { firstId, parts: message.receipts as PartReceipt[] };
  }

  get size(): number {
    return this.messages.size;
  }

  private forget(message: HeldMessage): void {
    this.messages.delete(message.key);
    for (const id of message.ids) if (id !== undefined) this.byPartId.delete(id);
  }

  private forgetOld(now: number): void {
    for (const message of this.messages.values()) {
      if (this.messages.size < this.opts.maxMessages && now - message.openedAt < this.opts.maxAgeMs) break;
      this.forget(message);
    }
  }
}
