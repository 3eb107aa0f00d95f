import { z } from "zod";

const ton = z.number().int().min(0).max(6);
const npi = z.number().int().min(0).max(18);

export const smppConfigSchema = z
  .object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).default(2775),
    systemId: z.string().min(1).max(15),
    /** SMPP 3.4 allows 8 characters; some SMSCs accept longer, so only an outer bound is enforced. */
    password: z.string().max(64),
    systemType: z.string().max(12).default(""),
    /** Used when a message has no `from`. */
    defaultSource: z.string().max(20).optional(),
    /**
     * Applied to a numeric defaultSource (messages without a sender id). A message's own sender id goes with the
     * TON/NPI of its kind (source-address.ts); alphanumeric senders always go as TON 5 / NPI 0.
     */
    sourceTon: ton.default(1),
    sourceNpi: npi.default(1),
    destTon: ton.default(1),
    destNpi: npi.default(1),
    bindMode: z.enum(["transceiver", "transmitter_receiver"]).default("transceiver"),
    /**
     * With bindMode transmitter_receiver: how many receiver binds take receipts and users' messages. An SMSC keeps
     * a window of unacknowledged deliver_sm per session, so each bind more lets it hand out another window while
     * the process is busy sending; each counts toward the account's bind limit (docs/dispatch.md).
     */
    receiverBinds: z.number().int().min(1).max(8).default(1),
    /** Max outstanding submit_sm (awaiting submit_sm_resp). */
    windowSize: z.number().int().min(1).max(1000).default(50),
    enquireLinkIntervalMs: z.number().int().min(100).default(30_000),
    reconnectInitialMs: z.number().int().min(10).default(1_000),
    reconnectMaxMs: z.number().int().min(10).default(30_000),
    /** Covers connect + bind_*_resp for one attempt. */
    bindTimeoutMs: z.number().int().min(100).default(10_000),
    /** Max wait for submit_sm_resp once written, and max wait for a (re)bind when send() finds no link. */
    submitTimeoutMs: z.number().int().min(100).default(30_000),
    /** How often one submit is retried after ESME_RTHROTTLED / ESME_RMSGQFUL before a retryable failure. */
    throttleRetries: z.number().int().min(0).max(100).default(10),
    throttleBackoffMs: z.number().int().min(1).default(100),
    throttleBackoffMaxMs: z.number().int().min(1).default(2_000),
    concatenation: z.enum(["udh", "sar"]).default("udh"),
    /**
     * How this SMSC spells message ids in submit_sm_resp. "as-is" compares ids verbatim. "decimal"/"hex" make the
     * adapter canonicalise ids (decimal without leading zeros; hex upper-case without leading zeros) in both
     * send() outcomes and reports, so a receipt quoting the other base still matches. See receipt.ts.
     */
    messageIdFormat: z.enum(["as-is", "decimal", "hex"]).default("as-is"),
    /** Base of a lone receipt id made only of digits, for SMSCs whose receipts use the other base. */
    receiptIdFormat: z.enum(["decimal", "hex"]).optional(),
  })
  .refine((c) => c.reconnectMaxMs >= c.reconnectInitialMs, {
    message: "reconnectMaxMs must be >= reconnectInitialMs",
    path: ["reconnectMaxMs"],
  });

export type SmppConfig = z.output<typeof smppConfigSchema>;
export type SmppConfigInput = z.input<typeof smppConfigSchema>;
