// How a browser page gets onto the queue board. The web client holds its session as a bearer token, which a page
// opened in a new tab cannot send; so:
//
//   1. the signed-in staff member's client asks POST /queue-board/ticket (bearer, like every call) and gets a
//      one-time ticket: 32 random bytes kept in Redis for 60 s, naming the session that asked;
//   2. it opens GET /admin/queues/open?ticket=... in a new tab; the ticket is spent at once (GETDEL) and the
//      answer sets a cookie scoped to /admin/queues (HttpOnly, SameSite=Lax, Secure over HTTPS) holding a token
//      signed with a key of its own, then redirects to the board, so the ticket leaves the address bar;
//   3. every board request checks that cookie: its signature and expiry (30 minutes, never past the session's
//      own), then the session behind it as authenticate does (signed out, frozen, deleted, password changed:
//      refused), then the role for that board.
//
// The cookie's token is signed with a key derived from JWT_SECRET for this use only: it can never pass as a
// session token at the rest of the API, nor a session token as a board cookie.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { RedisConnection } from "@switchboard/domain/redis";
import type { TokenClaims } from "../../plugins/auth";

export const BOARD_COOKIE = "sb_queue_board";
export const TICKET_TTL_SECONDS = 60;
export const BOARD_SESSION_SECONDS = 30 * 60;

/** What a ticket and the cookie carry: the session that asked for them. */
export interface BoardClaims extends Pick<TokenClaims, "sub" | "jti" | "ver" | "tid" | "typ"> {
  /** Expiry, epoch seconds. */
  exp: number;
}

const ticketKey = (prefix: string, ticket: string) => `${prefix}queue-board:ticket:${ticket}`;

export class BoardSessions {
  private readonly key: Buffer;

  constructor(
    private readonly redis: RedisConnection,
    private readonly redisPrefix: string,
    jwtSecret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac("sha256", jwtSecret).update("switchboard queue board cookie v1").digest();
  }

  /** A one-time ticket for this session, spent by the first open() within TICKET_TTL_SECONDS. */
  async issueTicket(session: Omit<BoardClaims, "exp"> & { exp: number }): Promise<string> {
    const ticket = randomBytes(32).toString("base64url");
    await this.redis.set(ticketKey(this.redisPrefix, ticket), JSON.stringify(session), "EX", TICKET_TTL_SECONDS);
    return ticket;
  }

  /** Spends a ticket: the session it names, or null (unknown, spent, expired, malformed). */
  async spendTicket(ticket: string): Promise<BoardClaims | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(ticket)) return null;
    const raw = await this.redis.getdel(ticketKey(this.redisPrefix, ticket));
    if (raw === null) return null;
    const session = JSON.parse(raw) as BoardClaims;
    return { ...session, exp: Math.min(session.exp, Math.floor(this.now() / 1000) + BOARD_SESSION_SECONDS) };
  }

  /** The cookie's value for these claims. */
  sign(claims: BoardClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a cookie value: null when forged, malformed or expired. */
  verify(value: string | undefined): BoardClaims | null {
    if (!value) return null;
    const [body, mac, ...rest] = value.split(".");
    if (!body || !mac || rest.length > 0) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: BoardClaims;
    try {
      claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as BoardClaims;
    } catch {
      return null;
    }
    if (typeof claims.exp !== "number" || claims.exp * 1000 <= this.now()) return null;
    return claims;
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
