// A customer's developer settings, for itself only: secret key, IP whitelist, notify URL (with a signed test
// delivery) and the API switch.
import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { createEgressPolicy, type EgressPolicy, isEgressRefused } from "@switchboard/channels";
import {
  CALLBACK_SIGNATURE_HEADER,
  type DeveloperInfo,
  type NotifyModBody,
  type NotifyModResult,
  type NotifyTestResult,
  portOfUrl,
  reasonOfCallbackError,
  SECRET_KEY_PREFIX,
  SECRET_KEY_SHOWN_PREFIX_LENGTH,
  type SecretKeyRefreshResult,
} from "@switchboard/contracts";
import type { Prisma, PrismaClient } from "@switchboard/db";
import { secretKeyHash, signCallback } from "@switchboard/domain/callback-signature";
import { postCallback } from "@switchboard/domain/callbacks";
import type { Deps } from "../../deps";
import { AppError, conflict, notFound } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";
import { normalizeIpList } from "./ip-whitelist";

/** How long the receiver of a test callback has to answer. */
export const NOTIFY_TEST_TIMEOUT_MS = 5_000;
/** How long saving a notify URL waits for its host name to resolve (the egress check); then it is accepted. */
export const NOTIFY_URL_LOOKUP_MS = 3_000;

/** Updates the caller's own row, conditional on it being live; returns the selected fields. */
async function updateSelf<S extends Prisma.UserSelect>(
  prisma: PrismaClient,
  p: Principal,
  data: Prisma.UserUpdateManyMutationInput,
  select: S,
) {
  const rows = await prisma.user.updateManyAndReturn({ where: { id: p.userId, deletedAt: null }, data, select });
  const row = rows[0];
  if (!row) throw notFound("entity.user");
  return row;
}

/** A new key, returned once: only its sha256 is kept, so the previous key stops working with this update. */
export async function refreshSecretKey(prisma: PrismaClient, p: Principal, now: Date): Promise<SecretKeyRefreshResult> {
  const secretKey = `${SECRET_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const secretKeyPrefix = secretKey.slice(0, SECRET_KEY_SHOWN_PREFIX_LENGTH);
  await updateSelf(
    prisma,
    p,
    { secretKeyHash: secretKeyHash(secretKey), secretKeyPrefix, secretKeyCreatedAt: now },
    { id: true },
  );
  return { secretKey, secretKeyPrefix, secretKeyCreatedAt: now.toISOString() };
}

export async function setIpWhitelist(prisma: PrismaClient, p: Principal, ips: string[]) {
  const result = normalizeIpList(ips);
  if (!result.ok)
    throw new AppError(400, "developer.ip_invalid", { field: `ips.${result.index}`, value: result.value });
  const row = await updateSelf(prisma, p, { ipWhitelist: result.entries }, { ipWhitelist: true });
  return { ipWhitelist: row.ipWhitelist };
}

/** The body of a test event: what a real status report looks like, marked as a test. */
function testEvent(userId: number, now: Date): string {
  return JSON.stringify({
    event: "test",
    eventId: randomUUID(),
    createdAt: now.toISOString(),
    data: { userId, message: "Test event from Switchboard: your notify URL receives status reports here." },
  });
}

async function sendTest(deps: Deps, p: Principal, url: string, keyHash: string, now: Date): Promise<NotifyTestResult> {
  const body = testEvent(p.userId, now);
  const outcome = await postCallback(
    {
      url,
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "Switchboard-Callback/1.0",
        "x-switchboard-event": "test",
        [CALLBACK_SIGNATURE_HEADER.toLowerCase()]: signCallback(keyHash, body, Math.floor(now.getTime() / 1000)),
      },
    },
    { timeoutMs: NOTIFY_TEST_TIMEOUT_MS, egress: createEgressPolicy(deps.config.EGRESS_ALLOW) },
  );
  await deps.prisma.notifyAttempt.create({
    data: {
      userId: p.userId,
      event: "test",
      attempt: 1,
      httpStatus: outcome.httpStatus,
      error: outcome.error?.slice(0, 200) ?? null,
      durationMs: outcome.durationMs,
    },
  });
  return { ...outcome, reason: reasonOfCallbackError(outcome.error) };
}

/**
 * Whether the egress policy lets callbacks reach this URL's host: a literal IP is judged as it stands, a name by
 * what it resolves to now. A name that does not resolve (yet), or not within NOTIFY_URL_LOOKUP_MS, is accepted:
 * the policy judges every delivery again on the address it connects to.
 */
async function hostAllowed(egress: EgressPolicy, url: URL): Promise<boolean> {
  const port = portOfUrl(url);
  if (!egress.precheck(url.hostname, port)) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) !== 0) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(true), NOTIFY_URL_LOOKUP_MS);
    egress.lookup(port)(host, { all: true }, (err) => {
      clearTimeout(timer);
      resolve(!(err && isEgressRefused(err)));
    });
  });
}

/**
 * Saves the notify URL ("" clears it). With test, also posts a signed sample event and reports the answer;
 * a test needs a URL and a secret key (callbacks are signed with it), checked before anything is saved.
 */
export async function setNotifyUrl(deps: Deps, p: Principal, body: NotifyModBody, now: Date): Promise<NotifyModResult> {
  const url = body.notifyUrl === "" ? null : body.notifyUrl;
  let keyHash: string | null = null;
  if (body.test) {
    if (!url) throw new AppError(400, "developer.notify_nothing_to_test");
    const me = await deps.prisma.user.findUnique({ where: { id: p.userId }, select: { secretKeyHash: true } });
    keyHash = me?.secretKeyHash ?? null;
    if (!keyHash) throw conflict("developer.no_secret_key");
  }
  // A URL callbacks can never reach (a loopback, private or reserved address) is refused before anything changes.
  if (url && !(await hostAllowed(createEgressPolicy(deps.config.EGRESS_ALLOW), new URL(url)))) {
    throw new AppError(400, "developer.notify_url_not_allowed", { host: new URL(url).host });
  }
  await updateSelf(deps.prisma, p, { notifyUrl: url }, { id: true });
  // The delivery runs after the update, outside any transaction: a slow receiver holds no lock.
  const test = url && keyHash ? await sendTest(deps, p, url, keyHash, now) : null;
  return { notifyUrl: url, test };
}

export async function toggleApi(prisma: PrismaClient, p: Principal, enabled: boolean) {
  const row = await updateSelf(prisma, p, { apiEnabled: enabled }, { apiEnabled: true });
  return { apiEnabled: row.apiEnabled };
}

export async function developerInfo(prisma: PrismaClient, p: Principal): Promise<DeveloperInfo> {
  const u = await prisma.user.findFirst({
    where: { id: p.userId, deletedAt: null },
    select: { apiEnabled: true, secretKeyPrefix: true, secretKeyCreatedAt: true, ipWhitelist: true, notifyUrl: true },
  });
  if (!u) throw notFound("entity.user");
  return { ...u, secretKeyCreatedAt: u.secretKeyCreatedAt?.toISOString() ?? null };
}
