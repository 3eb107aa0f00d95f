/**
 * Pure rules of the batch screens: status names and colours, which actions a status allows, what the
 * progress bar shows, and how often a list polls (only while something in it can still move by itself).
 */
import { BatchStatus, ReceiveResult, SendResult } from "@switchboard/contracts/codes";
import type { BatchMessageKey } from "./messages";

export const BATCH_STATUS_CODES: readonly BatchStatus[] = Object.values(BatchStatus);

const KNOWN = new Set<number>(BATCH_STATUS_CODES);

export function statusKey(status: number): BatchMessageKey | null {
  return KNOWN.has(status) ? (`status.${status}` as BatchMessageKey) : null;
}

/** antd Tag colours per status. */
const COLORS: Record<BatchStatus, string> = {
  [BatchStatus.UNDER_REVIEW]: "gold",
  [BatchStatus.REVIEW_PASSED]: "cyan",
  [BatchStatus.REVIEW_REJECTED]: "red",
  [BatchStatus.PENDING_SEND]: "blue",
  [BatchStatus.SENDING]: "processing",
  [BatchStatus.SEND_FINISHED]: "success",
  [BatchStatus.SEND_TERMINATED]: "orange",
  [BatchStatus.SEND_FAILED]: "error",
  [BatchStatus.SEND_CANCELLED]: "default",
};

export function statusColor(status: number): string {
  return COLORS[status as BatchStatus] ?? "default";
}

/** The customer may cancel before sending starts (11, 12, 20). */
export const canCancel = (status: number) =>
  status === BatchStatus.UNDER_REVIEW || status === BatchStatus.REVIEW_PASSED || status === BatchStatus.PENDING_SEND;
/** Staff may stop a sending batch (21). */
export const canTerminate = (status: number) => status === BatchStatus.SENDING;
/** Staff review a batch under review (11) whose file was read. */
export const canReview = (b: { status: number; ingesting: boolean }) =>
  b.status === BatchStatus.UNDER_REVIEW && !b.ingesting;
/** Staff move the send time of a batch pending send (20). */
export const canReschedule = (status: number) => status === BatchStatus.PENDING_SEND;

export interface ProgressRowFields {
  status: number;
  ingesting: boolean;
  ingestedCount: number;
  totalCount: number;
  validCount: number;
  sentCount: number;
  failedCount?: number;
  progress: number;
}

export interface ProgressInfo {
  /**
   * ingesting: numbers read of the file; sending: recipients sent of the valid ones; ended: a batch that ended
   * without sending everything well (rejected, terminated, failed, cancelled), whose progress names its end.
   */
  phase: "ingesting" | "sending" | "ended";
  done: number;
  total: number;
  /** Recipients whose send failed (shown for an ended batch). */
  failed: number;
  /** Whole percent, 0..100 (the server's own figure). */
  percent: number;
  /** antd Progress status. */
  state: "active" | "success" | "exception" | "normal";
}

const FAILED_ENDS = new Set<number>([
  BatchStatus.REVIEW_REJECTED,
  BatchStatus.SEND_FAILED,
  BatchStatus.SEND_TERMINATED,
  BatchStatus.SEND_CANCELLED,
]);

export function progressOf(b: ProgressRowFields): ProgressInfo {
  const percent = Math.max(0, Math.min(100, Math.round(b.progress)));
  if (b.ingesting) {
    return { phase: "ingesting", done: b.ingestedCount, total: b.totalCount, failed: 0, percent, state: "active" };
  }
  // A batch that ends without sending everything shows how far it got, not a full bar.
  const sentPercent = b.validCount > 0 ? Math.min(100, Math.floor((b.sentCount * 100) / b.validCount)) : 0;
  let state: ProgressInfo["state"] = "normal";
  if (b.status === BatchStatus.SENDING) state = "active";
  else if (b.status === BatchStatus.SEND_FINISHED) state = "success";
  else if (FAILED_ENDS.has(b.status)) state = "exception";
  const ended = FAILED_ENDS.has(b.status);
  return {
    phase: ended ? "ended" : "sending",
    done: b.sentCount,
    total: b.validCount,
    failed: b.failedCount ?? 0,
    percent: ended ? sentPercent : percent,
    state,
  };
}

/** Poll every 2 s while a row moves by itself (file being read, about to send, sending). */
export const LIVE_INTERVAL_MS = 2_000;
/** A batch scheduled later is looked at now and then, so the list notices when it starts. */
export const SCHEDULED_INTERVAL_MS = 30_000;
/** A schedule this close counts as due. */
const DUE_SOON_MS = 60_000;
/**
 * Delivery receipts come after the sends, so a batch that has just ended still moves: its delivered count grows
 * while receipts are outstanding. Watched closely this long after it ended, then now and then until
 * RECEIPT_WATCH_MS (a receipt later than that is read on the next visit; SMSCs hold most for seconds).
 */
const RECEIPT_CLOSE_MS = 2 * 60_000;
const RECEIPT_WATCH_MS = 15 * 60_000;
const SENT_ENDS = new Set<number>([BatchStatus.SEND_FINISHED, BatchStatus.SEND_TERMINATED, BatchStatus.SEND_FAILED]);

export interface LiveRowFields {
  status: number;
  ingesting: boolean;
  scheduledAt: string | null;
  /** With these, an ended batch whose receipts are still coming keeps being refreshed. */
  finishedAt?: string | null;
  successCount?: number;
  deliveredCount?: number;
  undeliveredCount?: number;
}

/** How soon an ended batch's row should be looked at again for its outstanding receipts, or false. */
function receiptInterval(r: LiveRowFields, now: number): number | false {
  if (!SENT_ENDS.has(r.status) || !r.finishedAt || r.successCount === undefined) return false;
  const outstanding = r.successCount - (r.deliveredCount ?? 0) - (r.undeliveredCount ?? 0);
  if (outstanding <= 0) return false;
  const since = now - Date.parse(r.finishedAt);
  if (Number.isNaN(since) || since > RECEIPT_WATCH_MS) return false;
  return since <= RECEIPT_CLOSE_MS ? LIVE_INTERVAL_MS : SCHEDULED_INTERVAL_MS;
}

/** The list's refetch interval for these rows, or false when nothing in them can change without an action. */
export function liveInterval(rows: readonly LiveRowFields[] | undefined, now = Date.now()): number | false {
  if (!rows) return false;
  let interval: number | false = false;
  const atMost = (ms: number | false) => {
    if (ms !== false && (interval === false || ms < interval)) interval = ms;
  };
  for (const r of rows) {
    if (r.ingesting || r.status === BatchStatus.SENDING || r.status === BatchStatus.REVIEW_PASSED) {
      return LIVE_INTERVAL_MS;
    }
    if (r.status === BatchStatus.PENDING_SEND) {
      const at = r.scheduledAt ? Date.parse(r.scheduledAt) : Number.NaN;
      atMost(Number.isNaN(at) || at - now <= DUE_SOON_MS ? LIVE_INTERVAL_MS : SCHEDULED_INTERVAL_MS);
    }
    atMost(receiptInterval(r, now));
  }
  return interval;
}

export const SEND_RESULT_CODES: readonly SendResult[] = Object.values(SendResult);
export const RECEIVE_RESULT_CODES: readonly ReceiveResult[] = Object.values(ReceiveResult);

export const sendResultColor = (r: number) =>
  r === SendResult.SUCCESS
    ? "success"
    : r === SendResult.FAILURE
      ? "error"
      : r === SendResult.TERMINATED
        ? "orange"
        : "default";
export const receiveResultColor = (r: number) =>
  r === ReceiveResult.RECEIVED ? "success" : r === ReceiveResult.RECEIVE_FAILED ? "error" : "default";
