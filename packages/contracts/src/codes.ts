// Every code of the product spec (section 4), exactly as the spec gives them.
// The database stores these numbers; the web client and workers read the same constants.

export const UserType = { ADMIN: 1, AGENT: 2, USER: 3, SUPER_ADMIN: 9 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];
export const STAFF_TYPES: readonly UserType[] = [UserType.ADMIN, UserType.AGENT, UserType.SUPER_ADMIN];

/** Account status of a user. */
export const AccountStatus = { NORMAL: 1, FROZEN: 2 } as const;
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];

/** The spec's other status set (channels, products, tenants, templates). */
export const ActiveStatus = { NORMAL: 1, PAUSED: 2 } as const;
export type ActiveStatus = (typeof ActiveStatus)[keyof typeof ActiveStatus];

export const AuthStatus = { NOT_AUTHENTICATED: 0, AUTHENTICATING: 1, AUTHENTICATED: 2, REJECTED: 3 } as const;
export type AuthStatus = (typeof AuthStatus)[keyof typeof AuthStatus];

export const AuthRequirement = { REQUIRED: 0, EXEMPT: 1 } as const;
export type AuthRequirement = (typeof AuthRequirement)[keyof typeof AuthRequirement];

export const ProductCode = { RCS: 1000, WS: 2000, SMS: 3000 } as const;
export type ProductCode = (typeof ProductCode)[keyof typeof ProductCode];
/** URL segment of each product code (/app/{product}/message/task). */
export const PRODUCT_SLUG: Record<ProductCode, "rcs" | "ws" | "sms"> = { 1000: "rcs", 2000: "ws", 3000: "sms" };

export const TaskType = { SCREENING: 1, MESSAGE: 2 } as const;
export type TaskType = (typeof TaskType)[keyof typeof TaskType];

export const SubmitMode = { SINGLE: 1, MULTIPLE: 2, FILE: 3 } as const;
export type SubmitMode = (typeof SubmitMode)[keyof typeof SubmitMode];

export const BatchStatus = {
  UNDER_REVIEW: 11,
  REVIEW_PASSED: 12,
  REVIEW_REJECTED: 13,
  PENDING_SEND: 20,
  SENDING: 21,
  SEND_FINISHED: 22,
  SEND_TERMINATED: 23,
  SEND_FAILED: 24,
  SEND_CANCELLED: 29,
} as const;
export type BatchStatus = (typeof BatchStatus)[keyof typeof BatchStatus];

export const CountryScope = { ALL: 1, INCLUDE: 2, EXCLUDE: 3 } as const;
export type CountryScope = (typeof CountryScope)[keyof typeof CountryScope];

export const InterfaceAction = { SET: 1, CLEAR: 2 } as const;
export type InterfaceAction = (typeof InterfaceAction)[keyof typeof InterfaceAction];

export const PriceAction = { SET: 1, CLEAR: 2 } as const;
export type PriceAction = (typeof PriceAction)[keyof typeof PriceAction];

export const SendResult = { NOT_SENT: 0, SUCCESS: 1, FAILURE: 2, TERMINATED: 3 } as const;
export type SendResult = (typeof SendResult)[keyof typeof SendResult];

export const ReceiveResult = { UNKNOWN: 0, RECEIVED: 1, RECEIVE_FAILED: 2 } as const;
export type ReceiveResult = (typeof ReceiveResult)[keyof typeof ReceiveResult];

/** Balance log types (not shown in the spec; decided in docs/decisions.md). */
export const BalanceLogType = { RECHARGE: 1, DEDUCT: 2, CONSUME: 3, REFUND: 4, GIFT: 5, REMITTANCE: 6 } as const;
export type BalanceLogType = (typeof BalanceLogType)[keyof typeof BalanceLogType];

export const RemittanceStatus = { PENDING: 1, CONFIRMED: 2, REJECTED: 3 } as const;
export type RemittanceStatus = (typeof RemittanceStatus)[keyof typeof RemittanceStatus];

export const ChannelKind = { SMPP: "smpp", WHATSAPP: "whatsapp", RCS: "rcs", HTTP: "http" } as const;
export type ChannelKind = (typeof ChannelKind)[keyof typeof ChannelKind];

/** Review rule of a tenant. */
export const ReviewMode = { NEVER: 0, ALL: 1, ABOVE_THRESHOLD: 2 } as const;
export type ReviewMode = (typeof ReviewMode)[keyof typeof ReviewMode];

export const Lang = { ZH: "zh", EN: "en" } as const;
export type Lang = (typeof Lang)[keyof typeof Lang];
export const DEFAULT_LANG: Lang = "zh";

/** Response envelope codes (DOMAIN.md). */
export const ResponseCode = { OK: 0, ERROR: 1, UNAUTHORIZED: 401 } as const;
export type ResponseCode = (typeof ResponseCode)[keyof typeof ResponseCode];

/**
 * Sent (value "200") by a client that reads every outcome from the envelope's `code`, the web client: a business
 * refusal (code 1 with 400, 402, 403, 404, 409, 413 or 429) then answers HTTP 200, so a browser does not log each
 * expected refusal as a failed request. 401, 500 and an unknown route keep their status; without the header
 * every HTTP status matches the envelope.
 */
export const REFUSAL_STATUS_HEADER = "x-refusal-status";

export const DEFAULT_SITE_TITLE = "RCS message platform";
