// Finance: recharge and deduct, gifts, the balance log, consume records and remittances (bank transfers).
// Money travels as decimal strings ("12.3400"); requests accept at most 2 decimals (docs/finance.md).
import { z } from "zod";
import { BalanceLogType, ProductCode, RemittanceStatus } from "./codes";
import {
  acrossTenants,
  bigId,
  codeIn,
  cursorParam,
  id,
  moneyAmount,
  pageOrCursor,
  paging,
  text,
  timeRange,
  withNextCursor,
} from "./common";
import { MAX_MONEY_UNITS } from "./money";

/** A code given in a query string ("2"): one of the listed values. */
const queryCode = codeIn;

/** A positive amount with at most 2 decimals and at most MAX_MONEY_UNITS, as money units (bigint). */
export const financeAmount = () =>
  moneyAmount(2).refine((units) => units <= MAX_MONEY_UNITS, {
    params: { i18n: "validation.money_max", max: "100000000.00" },
  });

const balanceLogTypes = Object.values(BalanceLogType);
const remittanceStatuses = Object.values(RemittanceStatus);

// ---------------------------------------------------------------- recharge, deduct, gift

export const rechargeBody = z.object({
  /** The customer (or, for admins, the agent) whose balance is credited. */
  userId: id(),
  amount: financeAmount(),
  remark: text(200).optional(),
});
export type RechargeBody = z.infer<typeof rechargeBody>;

/** A deduct always says why. */
export const deductBody = rechargeBody.extend({ remark: text(200, 1) });
export type DeductBody = z.infer<typeof deductBody>;

export const giftSendBody = rechargeBody;
export type GiftSendBody = z.infer<typeof giftSendBody>;

export const balanceChangeResult = z.object({
  /** The target's balance log row (BigInt id as a decimal string). */
  logId: z.string(),
  userId: z.number().int(),
  /** The target's balance after the change. */
  balance: z.string(),
  /** The calling agent's own balance after the change (reseller model); null when an admin acted. */
  agentBalance: z.string().nullable(),
});
export type BalanceChangeResult = z.infer<typeof balanceChangeResult>;

// ---------------------------------------------------------------- lists of balance log rows

export const balanceLogRow = z.object({
  /** BigInt id as a decimal string. */
  id: z.string(),
  userId: z.number().int(),
  user: z.string(),
  /** 1 recharge, 2 deduct, 3 consume, 4 refund, 5 gift, 6 remittance */
  type: z.number().int(),
  /** Signed: credits positive, debits negative. */
  amount: z.string(),
  balanceAfter: z.string(),
  /** Username of whoever caused the movement (null: the platform itself, e.g. a batch refund). */
  operator: z.string().nullable(),
  batchId: z.string().nullable(),
  remittanceId: z.number().int().nullable(),
  remark: z.string().nullable(),
  createdAt: z.string(),
  ...acrossTenants,
});
export type BalanceLogRow = z.infer<typeof balanceLogRow>;

/** A list of balance log rows with the sum of `amount` over every row the filters match (not just the page). */
export const balanceLogList = z.object({
  list: z.array(balanceLogRow),
  total: z.number().int(),
  totalAmount: z.string(),
});
export type BalanceLogList = z.infer<typeof balanceLogList>;

const ledgerFilters = {
  /** One user's rows (a customer, or for admins an agent). */
  userId: id().optional(),
  /** Rows of the customers owned by this agent. */
  agentId: id().optional(),
  ...timeRange.shape,
};

export const rechargeListQuery = paging.extend({
  /** add: credits by staff (recharge, gift, confirmed remittance); deduct: deducts. */
  type: z.enum(["add", "deduct"]),
  /** Contained (case-insensitively) in the username or the remark. */
  keyword: text(64).optional(),
  ...ledgerFilters,
});
export type RechargeListQuery = z.infer<typeof rechargeListQuery>;

export const consumeListQuery = paging.extend({
  batchId: bigId().optional(),
  /** Only rows of batches of this product (1000 RCS, 2000 WS, 3000 SMS). */
  productCode: queryCode(Object.values(ProductCode)).optional(),
  ...ledgerFilters,
});
export type ConsumeListQuery = z.infer<typeof consumeListQuery>;

export const consumeRow = balanceLogRow.extend({
  /** Product (1000 RCS, 2000 WS, 3000 SMS) of the row's batch; null when the row names no batch. */
  productCode: z.number().int().nullable(),
});
export const consumeList = balanceLogList.extend({ list: z.array(consumeRow) });
export type ConsumeList = z.infer<typeof consumeList>;

export const balanceLogQuery = paging.extend({
  type: queryCode(balanceLogTypes).optional(),
  ...ledgerFilters,
});
export type BalanceLogQuery = z.infer<typeof balanceLogQuery>;

/** GET /v1/balance/logs: the key's customer's own ledger (no user or agent filter). */
export const v1BalanceLogQuery = balanceLogQuery
  .omit({ userId: true, agentId: true })
  .extend(cursorParam)
  .strict()
  .superRefine(pageOrCursor);
export type V1BalanceLogQuery = z.infer<typeof v1BalanceLogQuery>;
export const v1BalanceLogList = withNextCursor(balanceLogList);
export type V1BalanceLogList = z.infer<typeof v1BalanceLogList>;

/** GET /v1/balance: what the customer can spend now, in its tenant's currency. */
export const v1Balance = z.object({ balance: z.string(), currency: z.string() });
export type V1Balance = z.infer<typeof v1Balance>;

// ---------------------------------------------------------------- remittances

/** Proof of a remittance: multipart/form-data file part `proof`, png/jpg/pdf, recognised by its first bytes. */
export const REMITTANCE_PROOF_FIELD = "proof";
export const REMITTANCE_PROOF_MAX_BYTES = 5 * 1024 * 1024;
export const REMITTANCE_PROOF_KINDS = ["png", "jpg", "pdf"] as const;

/** Text fields of POST /finance/remit/create (JSON, or multipart/form-data beside the `proof` file). */
export const remitCreateFields = z.object({
  amount: financeAmount(),
  /** Name of the account holder who sent the transfer. */
  payer: text(200, 1),
  /** The bank's transaction reference. */
  reference: text(200).optional(),
  remark: text(500).optional(),
});
export type RemitCreateFields = z.infer<typeof remitCreateFields>;

export const remitListQuery = paging.extend({
  /** 1 pending, 2 confirmed, 3 rejected */
  status: queryCode(remittanceStatuses).optional(),
  ...ledgerFilters,
});
export type RemitListQuery = z.infer<typeof remitListQuery>;

export const remittanceRow = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  user: z.string(),
  amount: z.string(),
  payer: z.string(),
  reference: z.string().nullable(),
  remark: z.string().nullable(),
  /** The proof is fetched with GET /finance/remit/proof?id= */
  hasProof: z.boolean(),
  /** 1 pending, 2 confirmed, 3 rejected */
  status: z.number().int(),
  reviewer: z.string().nullable(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  ...acrossTenants,
});
export type RemittanceRow = z.infer<typeof remittanceRow>;

/** totalAmount sums the amount of every remittance the filters match. */
export const remittanceList = z.object({
  list: z.array(remittanceRow),
  total: z.number().int(),
  totalAmount: z.string(),
});
export type RemittanceList = z.infer<typeof remittanceList>;

export const remitIdBody = z.object({ id: id() });
export type RemitIdBody = z.infer<typeof remitIdBody>;
export const remitIdQuery = remitIdBody;

export const remitRejectBody = z.object({ id: id(), reason: text(500, 1) });
export type RemitRejectBody = z.infer<typeof remitRejectBody>;
