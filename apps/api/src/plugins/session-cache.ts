// What the session check needs to know on every authenticated request, kept in this process so that a check
// costs no database or Redis round trip, and never outlives a change:
//   - Users (status, token version, deletion, tenant, type): read from PostgreSQL once, then served from memory.
//     A trigger on users NOTIFYs `session_users` with the id whenever one of those columns changes (or the row
//     goes), by any code path or by hand (prisma/migrations/20261126000000_session_notify); the entry is dropped
//     and the next request reads the row again. Entries are trusted only while the LISTEN connection is up (a
//     notification sent while it was down is lost): when it drops, everything is forgotten and every check reads
//     the database until it is back. An entry also ages out after maxAgeMs, a bound on any surprise.
//   - Developer API keys: the key (scopes, expiry, revocation) with its user, by the key's hash, held and dropped
//     like the users above, all of a user's keys at once (the users trigger also fires on the key, the API switch
//     and the IP whitelist: 20261126030000_api_key_notify; a trigger on api_keys sends the key's user id on the
//     same channel when a key is revoked or changed: 20261126130000_api_keys).
//   - Signed-out tokens (jti): every process holds the set. A sign-out writes the Redis key (with the token's
//     remaining life) and publishes the jti; every process adds it on the message. The set is built from the keys
//     after subscribing (so nothing falls between), and while the subscription is down every check asks Redis.
//
// The process that makes a change also forgets the user at once (forget()), so its own next request never waits
// for the notification's round trip.
import { type Listener, listen } from "@switchboard/db";
import { duplicateRedis, masters, type RedisConnection } from "@switchboard/domain/redis";

export interface SessionUser {
  id: number;
  type: number;
  tenantId: number | null;
  agentId: number | null;
  status: number;
  tokenVersion: number;
  deletedAt: Date | null;
  username: string;
}

export interface SessionCacheOptions {
  databaseUrl: string;
  redis: RedisConnection;
  redisPrefix: string;
  /** Longest a user entry is served without reading the row again. */
  maxAgeMs?: number;
  /** Most users held (the oldest go first). */
  maxUsers?: number;
  onError?: (err: Error, what: string) => void;
}

const USERS_CHANNEL = "session_users";
export const revokedKey = (prefix: string, jti: string) => `${prefix}revoked:${jti}`;
const revokedChannel = (prefix: string) => `${prefix}sessions-revoked`;

export class SessionCache {
  private readonly users = new Map<number, { user: SessionUser; at: number }>();
  /** Developer API keys (by hash) -> their user's row as the key check reads it; and each user's key hashes. */
  private readonly keys = new Map<string, { user: { id: number }; at: number }>();
  private readonly keysOfUser = new Map<number, Set<string>>();
  /** Bumped by every notification: a row read before a change must not be stored after it. */
  private epoch = 0;
  private usersLive = false;
  private listener: Listener | undefined;

  /** jti -> expiry (epoch seconds). */
  private readonly revoked = new Map<string, number>();
  private revokedLive = false;
  private subscriber: RedisConnection | undefined;
  private sweep: NodeJS.Timeout | undefined;

  private readonly maxAgeMs: number;
  private readonly maxUsers: number;

  constructor(private readonly opts: SessionCacheOptions) {
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.maxUsers = opts.maxUsers ?? 100_000;
  }

  /** Starts listening in the background: until both parts are live, every check reads as it did before. */
  start(): void {
    this.listener = listen(this.opts.databaseUrl, [USERS_CHANNEL], {
      notify: (_channel, payload) => this.forget(Number(payload)),
      live: (up) => {
        this.epoch++;
        this.users.clear();
        this.keys.clear();
        this.keysOfUser.clear();
        this.usersLive = up;
      },
      error: (err) => this.opts.onError?.(err, "session cache: database notifications"),
    });

    const { redis, redisPrefix } = this.opts;
    const sub = duplicateRedis(redis, { lazyConnect: true });
    this.subscriber = sub;
    sub.on("error", (err) => this.opts.onError?.(err, "session cache: sign-out messages"));
    sub.on("message", (_channel, message: string) => {
      const [jti, exp] = message.split(" ");
      if (jti) this.revoked.set(jti, Number(exp) || Math.floor(Date.now() / 1000) + 86_400);
    });
    // On every (re)connection: subscribe, then read the keys, so nothing published in between is missed.
    const resync = async () => {
      try {
        await sub.subscribe(revokedChannel(redisPrefix));
        await this.loadRevoked();
      } catch (err) {
        this.opts.onError?.(err as Error, "session cache: sign-out messages");
      }
    };
    sub.on("close", () => {
      this.revokedLive = false;
    });
    sub.on("ready", () => void resync());
    // Not waited for: until it is up every check asks Redis, as it would while it is down.
    sub.connect().catch((err: Error) => this.opts.onError?.(err, "session cache: sign-out messages"));
    this.sweep = setInterval(() => this.dropExpired(), 60_000);
    this.sweep.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.listener?.close();
    this.subscriber?.disconnect();
    this.usersLive = false;
    this.revokedLive = false;
  }

  /** The user's session state: from memory when it can be trusted, else read with `load` (and kept). */
  async user(id: number, load: (id: number) => Promise<SessionUser | null>): Promise<SessionUser | null> {
    const hit = this.users.get(id);
    if (hit && this.usersLive && Date.now() - hit.at < this.maxAgeMs) return hit.user;
    const epoch = this.epoch;
    const user = await load(id);
    if (user && this.usersLive && epoch === this.epoch) {
      if (this.users.size >= this.maxUsers) this.users.delete(this.users.keys().next().value as number);
      this.users.delete(id); // re-inserted last: the map's order is the eviction order
      this.users.set(id, { user, at: Date.now() });
    }
    return user;
  }

  /**
   * The user a developer API key (its hash) belongs to, as `load` reads it: from memory when it can be trusted,
   * else read (and kept, when found: unknown keys are not held, or anyone could fill the cache). The same
   * notifications drop it (the trigger also fires on the key, the API switch and the IP whitelist).
   */
  async keyUser<T extends { id: number }>(hash: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.keys.get(hash);
    if (hit && this.usersLive && Date.now() - hit.at < this.maxAgeMs) return hit.user as T;
    const epoch = this.epoch;
    const user = await load();
    if (user && this.usersLive && epoch === this.epoch) {
      if (this.keys.size >= this.maxUsers) {
        const [oldest] = this.keys.entries();
        if (oldest !== undefined) this.dropKey(oldest[0], oldest[1].user.id);
      }
      this.keys.delete(hash); // re-inserted last: the map's order is the eviction order
      this.keys.set(hash, { user, at: Date.now() });
      const held = this.keysOfUser.get(user.id);
      if (held) held.add(hash);
      else this.keysOfUser.set(user.id, new Set([hash]));
    }
    return user;
  }

  private dropKey(hash: string, userId: number): void {
    this.keys.delete(hash);
    const held = this.keysOfUser.get(userId);
    held?.delete(hash);
    if (held?.size === 0) this.keysOfUser.delete(userId);
  }

  /** Drops a user's entries (its row changed). */
  forget(userId: number): void {
    this.epoch++;
    this.users.delete(userId);
    for (const hash of this.keysOfUser.get(userId) ?? []) this.keys.delete(hash);
    this.keysOfUser.delete(userId);
  }

  async isRevoked(jti: string): Promise<boolean> {
    if (this.revokedLive) {
      const exp = this.revoked.get(jti);
      return exp !== undefined && exp * 1000 > Date.now();
    }
    return (await this.opts.redis.exists(revokedKey(this.opts.redisPrefix, jti))) === 1;
  }

  /** Ends one token's session everywhere: the key (for processes starting later), then the message. */
  async revoke(jti: string, exp: number): Promise<void> {
    const ttl = exp - Math.floor(Date.now() / 1000);
    if (ttl <= 0) return;
    const { redis, redisPrefix } = this.opts;
    await redis.set(revokedKey(redisPrefix, jti), "1", "EX", ttl);
    this.revoked.set(jti, exp);
    await redis.publish(revokedChannel(redisPrefix), `${jti} ${exp}`);
  }

  /** Reads every signed-out token's key (after subscribing, so nothing published meanwhile is missed). */
  private async loadRevoked(): Promise<void> {
    const { redis, redisPrefix } = this.opts;
    try {
      const now = Math.floor(Date.now() / 1000);
      // Every master of a cluster holds its own slots' keys: each is scanned, and asked for the TTLs of its keys.
      for (const node of masters(redis)) {
        let cursor = "0";
        do {
          const [next, keys] = await node.scan(cursor, "MATCH", revokedKey(redisPrefix, "*"), "COUNT", 1000);
          cursor = next;
          if (keys.length === 0) continue;
          const pipeline = node.pipeline();
          for (const key of keys) pipeline.ttl(key);
          const ttls = (await pipeline.exec()) ?? [];
          keys.forEach((key, i) => {
            const ttl = Number(ttls[i]?.[1]);
            if (ttl > 0) this.revoked.set(key.slice(revokedKey(redisPrefix, "").length), now + ttl);
          });
        } while (cursor !== "0");
      }
      this.revokedLive = this.subscriber?.status === "ready";
    } catch (err) {
      this.opts.onError?.(err as Error, "session cache: reading signed-out tokens");
    }
  }

  private dropExpired(): void {
    const now = Math.floor(Date.now() / 1000);
    for (const [jti, exp] of this.revoked) if (exp <= now) this.revoked.delete(jti);
  }
}
