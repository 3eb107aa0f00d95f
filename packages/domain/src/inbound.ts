// An inbound message (a user's reply, a suggestion or button tap) as the customer sees it: in the `inbound`
// webhook's body (workers/src/jobs/callback.ts) and in GET /v1/inbound, one shape (packages/contracts webhooks.ts).
import type { InboundData } from "@switchboard/contracts";

export interface InboundRow {
  id: bigint;
  batchId: bigint | null;
  recipientId: bigint | null;
  phone: string;
  text: string | null;
  postbackData: string | null;
  inReplyTo: string | null;
  receivedAt: Date;
}

export function toInboundData(m: InboundRow): InboundData {
  return {
    inboundId: m.id.toString(),
    batchId: m.batchId?.toString() ?? null,
    recipientId: m.recipientId?.toString() ?? null,
    from: m.phone,
    text: m.text,
    postbackData: m.postbackData,
    inReplyTo: m.inReplyTo,
    receivedAt: m.receivedAt.toISOString(),
  };
}
