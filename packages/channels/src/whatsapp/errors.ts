// What a WhatsApp Cloud API error means for the message, in the adapter contract's words.
//
// Reference followed: Meta's "Error codes" page (developers.facebook.com/documentation/business-messaging/whatsapp/
// support/error-codes, as mirrored in kapso-meta-docs/documentation whatsapp/error-codes.mdx, Nov 2025): the error
// object {error: {message, type, code, error_data: {messaging_product, details}, error_subcode, fbtrace_id}}, each
// code's HTTP status, and "build your error handling around code values" (error_subcode is deprecated since v16.0,
// so it never decides anything here). Rate limits: "About the platform" (pair rate limit: one message per 6 s to
// the same user) and "Throughput" (per-number messages per second, error 130429 until back under the level).
import type { FailureReason } from "../adapter";

export interface WhatsappErrorVerdict {
  retryable: boolean;
  reason: FailureReason;
  /** How long to wait before trying again, where the documentation says. */
  retryAfterMs?: number;
}

/** The Cloud API codes this adapter maps, by name (the tests and the simulator use the same table). */
export const WA_ERROR = {
  AUTH_EXCEPTION: 0,
  API_UNKNOWN: 1,
  API_SERVICE: 2,
  API_METHOD: 3,
  APP_RATE_LIMIT: 4,
  PERMISSION_DENIED: 10,
  PHONE_NUMBER_DELETED: 33,
  INVALID_PARAMETER: 100,
  ACCESS_TOKEN_EXPIRED: 190,
  POLICY_BLOCKED: 368,
  WABA_RATE_LIMIT: 80007,
  THROUGHPUT: 130429,
  EXPERIMENT: 130472,
  COUNTRY_RESTRICTED: 130497,
  SOMETHING_WENT_WRONG: 131000,
  ACCESS_DENIED: 131005,
  REQUIRED_PARAMETER_MISSING: 131008,
  PARAMETER_VALUE_INVALID: 131009,
  SERVICE_UNAVAILABLE: 131016,
  RECIPIENT_IS_SENDER: 131021,
  UNDELIVERABLE: 131026,
  ACCOUNT_LOCKED: 131031,
  DISPLAY_NAME_NOT_APPROVED: 131037,
  PAYMENT_ISSUE: 131042,
  INCORRECT_CERTIFICATE: 131045,
  REENGAGEMENT: 131047,
  SPAM_RATE_LIMIT: 131048,
  ECOSYSTEM_ENGAGEMENT: 131049,
  MARKETING_STOPPED: 131050,
  UNSUPPORTED_MESSAGE_TYPE: 131051,
  MEDIA_DOWNLOAD_ERROR: 131052,
  MEDIA_UPLOAD_ERROR: 131053,
  PAIR_RATE_LIMIT: 131056,
  MAINTENANCE_MODE: 131057,
  TEMPLATE_PARAM_COUNT_MISMATCH: 132000,
  TEMPLATE_DOES_NOT_EXIST: 132001,
  TEMPLATE_HYDRATED_TEXT_TOO_LONG: 132005,
  TEMPLATE_FORMAT_POLICY_VIOLATED: 132007,
  TEMPLATE_PARAMETER_FORMAT_MISMATCH: 132012,
  TEMPLATE_PAUSED: 132015,
  TEMPLATE_DISABLED: 132016,
  SERVER_TEMPORARILY_UNAVAILABLE: 133004,
  GENERIC_USER_ERROR: 135000,
} as const;

/** Pair rate limit: "1 message every 6 seconds to the same WhatsApp user" (About the platform, Rate limits). */
export const PAIR_RATE_INTERVAL_MS = 6_000;
/** Throughput is counted per second ("messages per second"), so the next second is the earliest that can help. */
export const THROUGHPUT_RETRY_MS = 1_000;

const permanent = (reason: FailureReason): WhatsappErrorVerdict => ({ retryable: false, reason });
const transient = (reason: FailureReason, retryAfterMs?: number): WhatsappErrorVerdict =>
  retryAfterMs === undefined ? { retryable: true, reason } : { retryable: true, reason, retryAfterMs };

const BY_CODE = new Map<number, WhatsappErrorVerdict>([
  // Throttling errors: slow down and try again; the recipient is fine.
  [WA_ERROR.APP_RATE_LIMIT, transient("throttled")],
  [WA_ERROR.WABA_RATE_LIMIT, transient("throttled")],
  [WA_ERROR.THROUGHPUT, transient("throttled", THROUGHPUT_RETRY_MS)],
  [WA_ERROR.PAIR_RATE_LIMIT, transient("throttled", PAIR_RATE_INTERVAL_MS)],
  // "restrictions on how many messages can be sent from this phone number": slower is the only remedy.
  [WA_ERROR.SPAM_RATE_LIMIT, transient("throttled")],

  // The provider's side is down or overloaded (their HTTP 500/503): the same message may go through later.
  [WA_ERROR.API_SERVICE, transient("provider")],
  [WA_ERROR.SOMETHING_WENT_WRONG, transient("provider")],
  [WA_ERROR.SERVICE_UNAVAILABLE, transient("provider")],
  [WA_ERROR.SERVER_TEMPORARILY_UNAVAILABLE, transient("provider")],
  // A throughput upgrade takes up to a minute, during which the number answers 131057.
  [WA_ERROR.MAINTENANCE_MODE, transient("provider")],

  // The channel itself is refused (token, permissions, account state): every message would fail the same way,
  // so the caller pauses the channel and keeps the batch instead of failing recipients.
  [WA_ERROR.AUTH_EXCEPTION, permanent("channel_auth")],
  [WA_ERROR.API_METHOD, permanent("channel_auth")],
  [WA_ERROR.PERMISSION_DENIED, permanent("channel_auth")],
  [WA_ERROR.PHONE_NUMBER_DELETED, permanent("channel_auth")],
  [WA_ERROR.ACCESS_TOKEN_EXPIRED, permanent("channel_auth")],
  [WA_ERROR.POLICY_BLOCKED, permanent("channel_auth")],
  [WA_ERROR.ACCESS_DENIED, permanent("channel_auth")],
  [WA_ERROR.ACCOUNT_LOCKED, permanent("channel_auth")],
  [WA_ERROR.DISPLAY_NAME_NOT_APPROVED, permanent("channel_auth")],
  [WA_ERROR.PAYMENT_ISSUE, permanent("channel_auth")],
  [WA_ERROR.INCORRECT_CERTIFICATE, permanent("channel_auth")],

  // This recipient cannot be reached on WhatsApp: not a WhatsApp number, old client, terms not accepted, or the
  // user stopped this business's marketing messages.
  [WA_ERROR.UNDELIVERABLE, permanent("unreachable")],
  [WA_ERROR.MARKETING_STOPPED, permanent("unreachable")],

  [WA_ERROR.REENGAGEMENT, permanent("window_closed")],

  [WA_ERROR.TEMPLATE_PARAM_COUNT_MISMATCH, permanent("template")],
  [WA_ERROR.TEMPLATE_DOES_NOT_EXIST, permanent("template")],
  [WA_ERROR.TEMPLATE_HYDRATED_TEXT_TOO_LONG, permanent("template")],
  [WA_ERROR.TEMPLATE_FORMAT_POLICY_VIOLATED, permanent("template")],
  [WA_ERROR.TEMPLATE_PARAMETER_FORMAT_MISMATCH, permanent("template")],
  [WA_ERROR.TEMPLATE_PAUSED, permanent("template")],
  [WA_ERROR.TEMPLATE_DISABLED, permanent("template")],

  [WA_ERROR.INVALID_PARAMETER, permanent("invalid")],
  [WA_ERROR.REQUIRED_PARAMETER_MISSING, permanent("invalid")],
  [WA_ERROR.PARAMETER_VALUE_INVALID, permanent("invalid")],
  [WA_ERROR.RECIPIENT_IS_SENDER, permanent("invalid")],
  [WA_ERROR.UNSUPPORTED_MESSAGE_TYPE, permanent("invalid")],
  [WA_ERROR.MEDIA_DOWNLOAD_ERROR, permanent("invalid")],
  [WA_ERROR.MEDIA_UPLOAD_ERROR, permanent("invalid")],
  [WA_ERROR.GENERIC_USER_ERROR, permanent("invalid")],

  // Meta declined this one message ("wait at least 24 hours", experiments, country restrictions): retrying now
  // cannot help, and it says nothing about the channel.
  [WA_ERROR.ECOSYSTEM_ENGAGEMENT, permanent("provider")],
  [WA_ERROR.EXPERIMENT, permanent("provider")],
  [WA_ERROR.COUNTRY_RESTRICTED, permanent("provider")],
]);

/**
 * The verdict for a Cloud API error. `code` is the error object's code (undefined when the answer carried none,
 * e.g. a proxy's HTML page); `subcode` is accepted for completeness but deprecated by Meta, so it never decides;
 * `httpStatus` decides only for codes this table does not know.
 */
export function classifyWhatsappError(
  code: number | undefined,
  _subcode: number | undefined,
  httpStatus: number,
): WhatsappErrorVerdict {
  if (code !== undefined) {
    const known = BY_CODE.get(code);
    if (known) return known;
    // "200-299 API Permission" is a range in the documentation.
    if (code >= 200 && code <= 299) return permanent("channel_auth");
  }
  if (httpStatus === 429) return transient("throttled");
  if (httpStatus >= 500) return transient("provider");
  if (httpStatus === 401 || httpStatus === 403) return permanent("channel_auth");
  return permanent("provider");
}

/**
 * What a template error says of the template itself, as the status its synced row should take (PAUSED for
 * quality, DISABLED, DELETED); undefined when the error is about this message's values, not the template.
 */
export function templateStatusOfError(errorCode: string): "PAUSED" | "DISABLED" | "DELETED" | undefined {
  switch (Number(errorCode)) {
    case WA_ERROR.TEMPLATE_PAUSED:
      return "PAUSED";
    case WA_ERROR.TEMPLATE_DISABLED:
      return "DISABLED";
    case WA_ERROR.TEMPLATE_DOES_NOT_EXIST:
      return "DELETED";
    default:
      return undefined;
  }
}
