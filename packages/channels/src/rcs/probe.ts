// Connection test of an RCS Business Messaging channel, in two steps:
//   1. authentication: a JWT signed with the service-account key (RS256, node:crypto) is exchanged at tokenUrl
//      for an access token with the RBM scope (Google's OAuth 2.0 service-account flow);
//   2. the access token is presented to the API ({baseUrl}/v1/brands): 401/403 there mean the API refuses it.
// Step 1 proves the key is genuine and active; step 2 that the API host answers and does not refuse the token.
import { createSign } from "node:crypto";
import type { ConnectionReason } from "@switchboard/contracts";
import {
  elapsedSince,
  failedProbe,
  joinUrl,
  jsonOf,
  type ProbeOptions,
  type ProbeResult,
  probeRequest,
  reasonOfStatus,
  shorten,
} from "../http/request";

export const RBM_SCOPE = "https://www.googleapis.com/auth/rcsbusinessmessaging";
const ASSERTION_LIFETIME_S = 3600;

export interface RcsProbeConfig {
  baseUrl: string;
  tokenUrl: string;
  /** The service-account key file's JSON text. */
  serviceAccountKey: string;
}

interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
}

export function parseServiceAccountKey(text: string): ServiceAccountKey | undefined {
  const key = jsonOf(text);
  if (typeof key?.client_email !== "string" || typeof key.private_key !== "string") return undefined;
  return {
    clientEmail: key.client_email,
    privateKey: key.private_key,
    privateKeyId: typeof key.private_key_id === "string" ? key.private_key_id : undefined,
  };
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The signed assertion of the JWT-bearer grant (RFC 7523). Throws when the private key cannot sign. */
export function serviceAccountAssertion(
  key: ServiceAccountKey,
  audience: string,
  nowS = Math.floor(Date.now() / 1000),
) {
  const header = { alg: "RS256", typ: "JWT", ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) };
  const claims = { iss: key.clientEmail, scope: RBM_SCOPE, aud: audience, iat: nowS, exp: nowS + ASSERTION_LIFETIME_S };
  const unsigned = `${b64url(header)}.${b64url(claims)}`;
  const signature = createSign("RSA-SHA256").update(unsigned).sign(key.privateKey).toString("base64url");
  return `${unsigned}.${signature}`;
}

/** OAuth 2.0's documented error answer (RFC 6749 5.2): an error code and a description, both cut short. */
function oauthError(status: number, body: string): string {
  const json = jsonOf(body);
  const error =
    typeof json?.error === "string" && /^[\w.-]{1,64}$/.test(json.error) ? json.error : "no OAuth error code";
  const description = typeof json?.error_description === "string" ? `: ${shorten(json.error_description)}` : "";
  return `the token endpoint refused the service-account key (HTTP ${status} ${error}${description})`;
}

/** Google's documented error object ({ error: { code, message, status } }): its message cut short. */
function apiError(status: number, body: string): string {
  const error = jsonOf(body)?.error as { message?: unknown; status?: unknown } | undefined;
  const message = typeof error?.message === "string" ? `: ${shorten(error.message)}` : "";
  if (status === 401) return `the RBM API refused the access token (HTTP 401)${message}`;
  if (status === 403) return `the service account may not use the RBM API (HTTP 403)${message}`;
  return `the RBM API answered HTTP ${status}${message}`;
}

export async function probeRcs(config: RcsProbeConfig, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const startedAt = performance.now();
  const fail = (reason: ConnectionReason, detail: string, httpStatus?: number): ProbeResult => ({
    ok: false,
    reason,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    detail,
    latencyMs: elapsedSince(startedAt),
  });
  const key = parseServiceAccountKey(config.serviceAccountKey);
  if (!key)
    return fail("invalid_key", "the service-account key is not a JSON key file with client_email and private_key");
  let assertion: string;
  try {
    assertion = serviceAccountAssertion(key, config.tokenUrl);
  } catch (err) {
    // a malformed PEM: say so without echoing any of the key
    return fail(
      "invalid_key",
      `the service-account private key cannot sign (${(err as { code?: string }).code ?? "invalid key"})`,
    );
  }

  const token = await probeRequest(
    config.tokenUrl,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    },
    opts,
  );
  if ("error" in token) return failedProbe(token, elapsedSince(startedAt));
  // OAuth refuses a key with 400 (invalid_grant) or 401: either way the credentials.
  if (token.status !== 200) {
    const reason = token.status === 400 ? "credentials_refused" : reasonOfStatus(token.status);
    return fail(reason, oauthError(token.status, token.body), token.status);
  }
  const accessToken = jsonOf(token.body)?.access_token;
  if (typeof accessToken !== "string" || accessToken === "")
    return fail("bad_answer", "the token endpoint answered without an access_token");

  const api = await probeRequest(
    joinUrl(config.baseUrl, "v1/brands"),
    { method: "GET", headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" } },
    opts,
  );
  if ("error" in api) return failedProbe(api, elapsedSince(startedAt));
  const host = new URL(config.baseUrl).host;
  const authenticated = `authenticated as ${key.clientEmail}`;
  // The RBM messaging API has no brands listing (the management API does): a 404 there still means the
  // host answered and did not refuse the token, which is what this step checks.
  if (api.status === 404) {
    return {
      ok: true,
      reason: "ok",
      httpStatus: 404,
      detail: `${authenticated}; ${host} did not refuse the access token (no brands listing there, HTTP 404)`,
      latencyMs: elapsedSince(startedAt),
    };
  }
  if (api.status < 200 || api.status >= 300)
    return fail(reasonOfStatus(api.status), apiError(api.status, api.body), api.status);
  return {
    ok: true,
    reason: "ok",
    httpStatus: api.status,
    detail: `${authenticated}; ${host} accepted the access token`,
    latencyMs: elapsedSince(startedAt),
  };
}
