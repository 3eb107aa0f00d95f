// The RBM access token of a channel: Google's OAuth 2.0 service-account flow (a JWT signed with the key, RS256,
// exchanged at tokenUrl with grant_type urn:ietf:params:oauth:grant-type:jwt-bearer, RFC 7523), answered
// {"access_token", "expires_in", "token_type": "Bearer"} or an OAuth error {"error": "invalid_grant", ...}.
//
// References followed: Google "Using OAuth 2.0 for Server to Server Applications" (the assertion's claims, the
// token answer, invalid_grant for a bad signature or a deleted key); the RBM guides' authentication page (scope
// https://www.googleapis.com/auth/rcsbusinessmessaging); the assertion itself is probe.ts's.
//
// Decisions:
//   - One token per adapter, reused until shortly before it expires: 60 s before, or half its lifetime when it is
//     shorter than two minutes (a simulator's short-lived tokens), so no send carries a token about to lapse.
//   - Single flight: however many sends find the token stale at once, one request goes to the token endpoint and
//     they all await it.
//   - A 401 from the API (the token was revoked or expired early) drops that token only: sends that got the 401
//     with the same token share one refresh; a send whose token was already replaced just takes the new one.
import type { Dispatcher } from "undici";
import { type SendFailure, sendFailure } from "../adapter";
import { jsonOf, shorten } from "../http/request";
import { rbmCall } from "./http";
import { type parseServiceAccountKey, serviceAccountAssertion } from "./probe";

type ServiceAccountKey = NonNullable<ReturnType<typeof parseServiceAccountKey>>;

export interface AccessToken {
  readonly value: string;
  /** ms since the epoch, by the source's clock. */
  readonly expiresAt: number;
  /** When the source stops handing it out and fetches a new one. */
  readonly refreshAt: number;
  /** "Bearer <value>", built once. */
  readonly authorization: string;
}

export interface TokenSourceOptions {
  tokenUrl: string;
  key: ServiceAccountKey;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /**
   * The clock deciding whether the token is still fresh (ms); tests move it. The assertion's iat / exp always
   * come from the wall clock: the token endpoint checks them against its own.
   */
  now?: () => number;
}

const MAX_MARGIN_MS = 60_000;

export class RbmTokenSource {
  private current: AccessToken | undefined;
  private inflight: Promise<AccessToken | SendFailure> | undefined;
  private readonly origin: string;
  private readonly path: string;
  private readonly now: () => number;
  /** Tokens obtained from the endpoint (first one included). */
  fetched = 0;

  constructor(private readonly options: TokenSourceOptions) {
    const url = new URL(options.tokenUrl);
    this.origin = url.origin;
    this.path = `${url.pathname}${url.search}`;
    this.now = options.now ?? Date.now;
  }

  /** The cached token while fresh, else a new one (shared by every concurrent caller). */
  get(): Promise<AccessToken | SendFailure> {
    const token = this.current;
    if (token !== undefined && this.now() < token.refreshAt) return Promise.resolve(token);
    return this.fetch();
  }

  /** After the API refused `stale` with 401: a new token, unless another caller replaced it already. */
  refreshAfter(stale: AccessToken): Promise<AccessToken | SendFailure> {
    if (this.current === stale) this.current = undefined;
    const token = this.current;
    if (token !== undefined && this.now() < token.refreshAt) return Promise.resolve(token);
    return this.fetch();
  }

  /** Forgets the token (a settings change, a test). */
  clear(): void {
    this.current = undefined;
  }

  private fetch(): Promise<AccessToken | SendFailure> {
    if (this.inflight !== undefined) return this.inflight;
    const run = this.request().then((result) => {
      this.inflight = undefined;
      if (!("ok" in result)) this.current = result;
      return result;
    });
    this.inflight = run;
    return run;
  }

  private async request(): Promise<AccessToken | SendFailure> {
    const startedAt = this.now();
    let assertion: string;
    try {
      assertion = serviceAccountAssertion(this.options.key, this.options.tokenUrl);
    } catch (err) {
      // A malformed PEM: said without echoing any of the key.
      const code = (err as { code?: unknown }).code;
      return sendFailure(
        "KEY_CANNOT_SIGN",
        false,
        `the service-account private key cannot sign${typeof code === "string" ? ` (${code})` : ""}`,
        { reason: "channel_auth" },
      );
    }
    const answer = await rbmCall(
      this.options.dispatcher,
      {
        origin: this.origin,
        path: this.path,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: `grant_type=${encodeURIComponent("urn:ietf:params:oauth:grant-type:jwt-bearer")}&assertion=${assertion}`,
      },
      this.options.timeoutMs,
      "the token endpoint",
    );
    if (!("status" in answer)) return answer;
    const json = jsonOf(answer.body);
    if (answer.status !== 200) return tokenFailure(answer.status, json);
    const value = json?.access_token;
    const expiresIn = json?.expires_in;
    if (typeof value !== "string" || value === "" || /[\s,]/.test(value)) {
      return sendFailure("TOKEN_BAD_ANSWER", true, "the token endpoint answered without an access_token", {
        reason: "provider",
      });
    }
    // RFC 6749 makes expires_in optional ("recommended"); Google always sends it. Without it: an hour, Google's.
    const lifetimeMs = (typeof expiresIn === "number" && expiresIn > 0 ? expiresIn : 3600) * 1000;
    const margin = Math.min(MAX_MARGIN_MS, lifetimeMs / 2);
    this.fetched++;
    return {
      value,
      expiresAt: startedAt + lifetimeMs,
      refreshAt: startedAt + lifetimeMs - margin,
      authorization: `Bearer ${value}`,
    };
  }
}

/** OAuth 2.0's error answer (RFC 6749 5.2) as the contract's failure. */
function tokenFailure(status: number, json: Record<string, unknown> | undefined): SendFailure {
  const error = typeof json?.error === "string" && /^[a-z_]{1,40}$/.test(json.error) ? json.error : undefined;
  const description = typeof json?.error_description === "string" ? `: ${shorten(json.error_description)}` : "";
  const detail = `the token endpoint refused the service-account key (HTTP ${status}${error ? ` ${error}` : ""}${description})`;
  if (status === 429) return sendFailure("TOKEN_HTTP_429", true, detail, { reason: "throttled" });
  if (status >= 500) return sendFailure(`TOKEN_HTTP_${status}`, true, detail, { reason: "provider" });
  // invalid_grant (bad signature, deleted or disabled key, clock skew), invalid_client, unauthorized_client,
  // invalid_scope: the channel's credentials, not a passing fault.
  return sendFailure(error ? `TOKEN_${error.toUpperCase()}`.slice(0, 32) : `TOKEN_HTTP_${status}`, false, detail, {
    reason: "channel_auth",
  });
}
