// A customer's developer settings: secret key, IP whitelist, notify (callback) URL and the API switch.
import { z } from "zod";
import { bigId, id, listOf, paging } from "./common";
import { BAD_PORTS, CONNECTION_REASONS, portOfUrl } from "./connection-test";
import { WEBHOOK_EVENTS } from "./webhooks";

/** Secret keys look like "sk_<43 base64url characters>"; the first 8 characters are kept to tell keys apart. */
export const SECRET_KEY_PREFIX = "sk_";
export const SECRET_KEY_SHOWN_PREFIX_LENGTH = 8;

export const IP_WHITELIST_MAX = 50;
export const NOTIFY_URL_MAX = 1000;
/** Header carrying `t=<unix seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">` on every callback. */
export const CALLBACK_SIGNATURE_HEADER = "X-Switchboard-Signature";

export const secretKeyRefreshResult = z.object({
  /** Shown once: only its sha256 is stored. */
  secretKey: z.string(),
  secretKeyPrefix: z.string(),
  secretKeyCreatedAt: z.string(),
});
export type SecretKeyRefreshResult = z.infer<typeof secretKeyRefreshResult>;

export const ipModBody = z.object({
  /** IPv4 or IPv6 addresses and CIDR ranges (10.0.0.0/8, 2001:db8::/32); empty list = any address. */
  ips: z.array(z.string().trim().min(1).max(64)).max(IP_WHITELIST_MAX),
});
export type IpModBody = z.infer<typeof ipModBody>;
export const ipModResult = z.object({ ipWhitelist: z.array(z.string()) });
export type IpModResult = z.infer<typeof ipModResult>;

/** An http(s) URL without credentials in it, on a port HTTP can be called on (not BAD_PORTS); "" clears it. */
export const notifyUrl = z
  .string()
  .trim()
  .max(NOTIFY_URL_MAX)
  .refine(
    (v) => {
      if (v === "") return true;
      if (!URL.canParse(v)) return false;
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password && u.hostname !== "";
    },
    { params: { i18n: "developer.notify_url_invalid" } },
  )
  .superRefine((v, ctx) => {
    if (v === "" || !URL.canParse(v)) return;
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") return; // refused above
    const port = portOfUrl(u);
    if (BAD_PORTS.has(port)) {
      ctx.addIssue({ code: "custom", message: "bad port", params: { i18n: "developer.notify_url_bad_port", port } });
    }
  });

export const notifyModBody = z.object({
  notifyUrl,
  /** Also post a signed sample event to the URL and report how it answered. */
  test: z.boolean().optional(),
});
export type NotifyModBody = z.infer<typeof notifyModBody>;

export const notifyTestResult = z.object({
  /** true when the URL answered with a 2xx status. */
  delivered: z.boolean(),
  httpStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** Why it was not delivered (timeout, connection refused, refused address...), null when delivered. */
  error: z.string().nullable(),
  /** The same as a code clients translate (CONNECTION_REASONS): "ok" when delivered. */
  reason: z.enum(CONNECTION_REASONS),
});
export type NotifyTestResult = z.infer<typeof notifyTestResult>;

export const notifyModResult = z.object({
  notifyUrl: z.string().nullable(),
  test: notifyTestResult.nullable(),
});
export type NotifyModResult = z.infer<typeof notifyModResult>;

export const apiToggleBody = z.object({ enabled: z.boolean() });
export type ApiToggleBody = z.infer<typeof apiToggleBody>;
export const apiToggleResult = z.object({ apiEnabled: z.boolean() });
export type ApiToggleResult = z.infer<typeof apiToggleResult>;

export const developerInfo = z.object({
  apiEnabled: z.boolean(),
  /** null until the first POST /user/sk/refresh. */
  secretKeyPrefix: z.string().nullable(),
  secretKeyCreatedAt: z.string().nullable(),
  ipWhitelist: z.array(z.string()),
  notifyUrl: z.string().nullable(),
});
export type DeveloperInfo = z.infer<typeof developerInfo>;

// ---------------------------------------------------------------- callback attempts (GET /user/notify/attempts)

/** The events an attempt may be of: the webhook catalogue's, and the notify URL's test. */
export const NOTIFY_ATTEMPT_EVENTS = [...WEBHOOK_EVENTS, "test"] as const;

export const notifyAttemptListQuery = paging.extend({
  event: z.enum(NOTIFY_ATTEMPT_EVENTS).optional(),
  batchId: bigId().optional(),
  /** Staff (required for them): the customer whose attempts to read, one they manage. Customers read their own. */
  userId: id().optional(),
});
export type NotifyAttemptListQuery = z.infer<typeof notifyAttemptListQuery>;

export const notifyAttemptRow = z.object({
  id: z.string(),
  event: z.string(),
  /** The eventId the body carried (the same on every attempt of one event); null for tests and older attempts. */
  eventId: z.string().nullable(),
  batchId: z.string().nullable(),
  /** 1 for the first attempt of an event; a resend by hand is its own attempt 1 (manual). */
  attempt: z.number().int(),
  /** The receiver's HTTP status; null when none came (timeout, refused connection, no secret key). */
  httpStatus: z.number().int().nullable(),
  /** What went wrong (http_500, timeout, no_secret_key...); null on success. */
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  manual: z.boolean(),
  /** Whether POST /user/notify/attempts/{id}/resend can send its event again (tests and older attempts cannot). */
  resendable: z.boolean(),
  createdAt: z.string(),
});
export type NotifyAttemptRow = z.infer<typeof notifyAttemptRow>;
export const notifyAttemptList = listOf(notifyAttemptRow);
export type NotifyAttemptList = z.infer<typeof notifyAttemptList>;

export const notifyAttemptIdParams = z.object({ id: bigId() });

export const notifyResendResult = z.object({
  /** The attempt's event, queued again with its eventId (a receiver drops a repeat by it). */
  eventId: z.string(),
  event: z.string(),
  batchId: z.string().nullable(),
  /** The resend's job: one at a time per event (409 while it is queued). */
  jobId: z.string(),
});
export type NotifyResendResult = z.infer<typeof notifyResendResult>;
