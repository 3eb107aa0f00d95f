// Screening (task type 1) of one chunk: the channel's reachability check, never its send. Numbers go to the
// provider in slices (users:batchGet, an HLR lookup, a contacts check); each recipient's answer is recorded the
// way a send outcome is (send-outcomes.ts, conditional on sendResult 0, counters in the same statement):
//
//   reachable    -> send result 1, receive result 1 (charged the screening price)
//   unreachable  -> send result 1, receive result 2, error UNREACHABLE (charged: the answer is the product)
//   unknown      -> send result 2, error REACHABILITY_UNKNOWN (refunded when the batch is settled)
//
// So for a screening batch the batch's delivered / undelivered counters read "reachable" / "not reachable".
// Transient refusals (429, 5xx, a lost connection) are retried with backoff like sends; a refused channel
// (credentials, egress) pauses it; a permanent refusal fails the slice (refunded).
import type { ChannelAdapter, ReachabilityOutcome } from "@switchboard/channels";
import { ReceiveResult, SendResult } from "@switchboard/contracts";
import type { TokenBucket } from "@switchboard/domain/token-bucket";
import type { OutcomeWriter, SendOutcomeRow } from "../lib/send-outcomes";

/** Numbers per reachability call: well under every provider's limit (RBM 10,000, HLR 1,000) and a quick answer. */
export const SCREEN_SLICE = 500;

export const UNREACHABLE = "UNREACHABLE";
export const REACHABILITY_UNKNOWN = "REACHABILITY_UNKNOWN";

export interface ScreenRecipient {
  id: bigint;
  phone: string;
}

export interface Screener {
  check: NonNullable<ChannelAdapter["checkReachability"]>;
  bucket: TokenBucket;
  tokenBatch: number;
  writer: OutcomeWriter;
  /** False once the batch stopped sending or the chunk lost its lease. */
  stillSending: () => Promise<boolean>;
  statusCheckMs: number;
}

export interface ScreenRound {
  retry: ScreenRecipient[];
  channelRefused: boolean;
  lastErrorCode: string;
  stopped: boolean;
}

/** The outcome row of one screened number. */
export function screenedRow(recipientId: bigint, answer: "reachable" | "unreachable" | "unknown"): SendOutcomeRow {
  if (answer === "unknown")
    return { recipientId, result: SendResult.FAILURE, providerMessageId: null, errorCode: REACHABILITY_UNKNOWN };
  const reachable = answer === "reachable";
  return {
    recipientId,
    result: SendResult.SUCCESS,
    providerMessageId: null,
    errorCode: null,
    receipt: {
      result: reachable ? ReceiveResult.RECEIVED : ReceiveResult.RECEIVE_FAILED,
      errorCode: reachable ? null : UNREACHABLE,
    },
  };
}

/** One pass over the recipients, a slice per call. */
export async function screenRound(s: Screener, recipients: readonly ScreenRecipient[]): Promise<ScreenRound> {
  const round: ScreenRound = { retry: [], channelRefused: false, lastErrorCode: "", stopped: false };
  let nextCheck = 0;
  for (let i = 0; i < recipients.length; i += SCREEN_SLICE) {
    const slice = recipients.slice(i, i + SCREEN_SLICE);
    if (Date.now() >= nextCheck) {
      if (!(await s.stillSending())) {
        round.stopped = true;
        return round;
      }
      nextCheck = Date.now() + s.statusCheckMs;
    }
    // The channel's throughput counts numbers checked, across workers, as it counts messages sent.
    for (let tokens = 0; tokens < slice.length; ) {
      tokens += await s.bucket.acquire(Math.min(s.tokenBatch, slice.length - tokens));
    }
    const outcome: ReachabilityOutcome = await s.check(slice.map((r) => r.phone));
    if (outcome.ok) {
      for (const r of slice) s.writer.add(screenedRow(r.id, outcome.results.get(r.phone) ?? "unknown"));
      continue;
    }
    round.lastErrorCode = outcome.errorCode;
    if (outcome.reason === "channel_auth" || outcome.errorCode === "EGRESS_REFUSED") {
      round.channelRefused = true;
      round.retry.push(...recipients.slice(i));
      return round;
    }
    if (outcome.retryable) round.retry.push(...slice);
    else
      for (const r of slice)
        s.writer.add({
          recipientId: r.id,
          result: SendResult.FAILURE,
          providerMessageId: null,
          errorCode: outcome.errorCode,
        });
  }
  return round;
}
