// A lost Redis or PostgreSQL in the log: one clear line when it goes ("Redis unreachable at 127.0.0.1:6379,
// retrying every 5 s"), the same news at most once per `repeatEveryMs` while it lasts, one line when it is back;
// never a stack per retry. Every connection of a process (ioredis clients, BullMQ queues and workers, Prisma
// queries) reports its errors to the one Outage of its server; errors that are not "cannot reach it" are left to
// the caller's own logging.
//
// The address comes from the URL without its user and password: a log line never carries a credential.

/** The two log levels an outage uses (pino's and Fastify's loggers fit). */
export interface OutageLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface OutageOptions {
  /** What is unreachable, as the line names it: "Redis", "PostgreSQL". */
  what: string;
  /** host:port, never a URL with credentials (see addressOf). */
  where: string;
  /** How often the process tries again (the clients' reconnect delay, or the probe's interval). */
  retryEveryMs: number;
  /** Least time between two "still unreachable" lines. */
  repeatEveryMs?: number;
  logger: OutageLogger;
  /**
   * Tells whether it answers again (e.g. SELECT 1): run every retryEveryMs while down, the outage ends at its
   * first success. Without one, the owner calls up() (ioredis' "ready" event).
   */
  probe?: () => Promise<unknown>;
  now?: () => number;
  /** Timers, replaceable in tests. */
  setTimer?: (fn: () => void, ms: number) => { unref?: () => unknown };
  clearTimer?: (timer: unknown) => void;
}

export const DEFAULT_REPEAT_EVERY_MS = 30_000;

/** Codes of a socket that could not reach its server or lost it. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);
/** Prisma's "cannot reach / timed out / connection closed" codes. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017"]);
/** Driver adapter error kinds (Prisma over pg) of the same meaning. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
/** PostgreSQL server states that refuse connections for a while: starting up, shutting down, crash recovery. */
const PG_STATES = new Set(["57P01", "57P02", "57P03"]);
/** ioredis' own messages for commands that met no connection. */
const REDIS_MESSAGES = [/^Connection is closed/, /^Reached the max retries per request limit/, /enableOfflineQueue/];

/**
 * Why this error means "the server cannot be reached" (a short code such as ECONNREFUSED), or null when it is
 * some other failure. Looks through causes and Prisma's driver adapter error, a few levels deep.
 */
export function connectionFailure(err: unknown, depth = 0): string | null {
  if (typeof err !== "object" || err === null || depth > 4) return null;
  const e = err as {
    code?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
    errors?: unknown;
  };
  if (typeof e.code === "string") {
    if (SOCKET_CODES.has(e.code) || PRISMA_CODES.has(e.code) || PG_STATES.has(e.code)) return e.code;
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return e.kind;
  if (typeof e.message === "string" && REDIS_MESSAGES.some((re) => re.test(e.message as string))) {
    return (e.message as string).split(/[.:]/)[0] ?? "connection lost";
  }
  // AggregateError (a name resolving to several addresses, each refused)
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = connectionFailure(inner, depth + 1);
      if (found) return found;
    }
  }
  return connectionFailure(e.cause, depth + 1) ?? connectionFailure(e.meta?.driverAdapterError, depth + 1);
}

/** host:port of a redis:// or postgresql:// URL, without user, password or database. */
export function addressOf(url: string, defaultPort: number): string {
  try {
    const u = new URL(url);
    return `${u.hostname || "localhost"}:${u.port || defaultPort}`;
  } catch {
    return "(unparsable URL)";
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

export class Outage {
  private since: number | null = null;
  private lastSaid = 0;
  private probing: { unref?: () => unknown } | undefined;
  private closed = false;
  private readonly now: () => number;
  private readonly repeatEveryMs: number;

  constructor(private readonly opts: OutageOptions) {
    this.now = opts.now ?? Date.now;
    this.repeatEveryMs = opts.repeatEveryMs ?? DEFAULT_REPEAT_EVERY_MS;
  }

  /** host:port of the dependency. */
  get where(): string {
    return this.opts.where;
  }

  get isDown(): boolean {
    return this.since !== null;
  }

  /**
   * An error from this dependency: true when it says the server cannot be reached (logged here, at a bounded
   * rate); false for anything else, which the caller logs as it would.
   */
  report(err: unknown): boolean {
    const cause = connectionFailure(err);
    if (cause === null) return false;
    this.down(cause);
    return true;
  }

  /** The dependency cannot be reached (cause: a short code, never a message with an address or credential). */
  down(cause: string): void {
    const now = this.now();
    const { what, where, retryEveryMs, logger } = this.opts;
    const fields = { dependency: what, address: where, cause };
    if (this.since === null) {
      this.since = now;
      this.lastSaid = now;
      logger.warn(fields, `${what} unreachable at ${where} (${cause}), retrying every ${seconds(retryEveryMs)}`);
      this.probeLater();
      return;
    }
    if (now - this.lastSaid < this.repeatEveryMs) return;
    this.lastSaid = now;
    logger.warn(
      { ...fields, downForMs: now - this.since },
      `${what} still unreachable at ${where} for ${seconds(now - this.since)} (${cause}), retrying every ${seconds(retryEveryMs)}`,
    );
  }

  /** It answers again: one line, if it was down. */
  up(): void {
    if (this.since === null) return;
    const downForMs = this.now() - this.since;
    this.since = null;
    this.stopProbe();
    const { what, where, logger } = this.opts;
    logger.info(
      { dependency: what, address: where, downForMs },
      `${what} reachable again at ${where} after ${seconds(downForMs)}`,
    );
  }

  close(): void {
    this.closed = true;
    this.stopProbe();
  }

  private probeLater(): void {
    const { probe } = this.opts;
    if (!probe || this.closed || this.probing) return;
    const set = this.opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    this.probing = set(() => {
      this.probing = undefined;
      if (this.closed || this.since === null) return;
      probe().then(
        () => this.up(),
        (err: unknown) => {
          // Still down (its report() repeats the line at most every repeatEveryMs), or up but failing otherwise:
          // either way the next probe decides.
          if (!this.report(err)) this.up();
          else this.probeLater();
        },
      );
    }, this.opts.retryEveryMs);
    this.probing.unref?.();
  }

  private stopProbe(): void {
    if (this.probing === undefined) return;
    (this.opts.clearTimer ?? ((t: unknown) => clearTimeout(t as NodeJS.Timeout)))(this.probing);
    this.probing = undefined;
  }
}

/**
 * ioredis' reconnect delay for every connection of a process: half a second after a blip, then every
 * REDIS_RETRY_EVERY_MS while Redis stays away (the outage line says so).
 */
export const REDIS_RETRY_EVERY_MS = 5_000;
export const redisRetryStrategy = (times: number): number => (times <= 1 ? 500 : REDIS_RETRY_EVERY_MS);
/** How often a process looks whether PostgreSQL answers again, once it could not reach it. */
export const POSTGRES_RETRY_EVERY_MS = 5_000;

/** A process's two dependencies, each with its own outage line. */
export interface Outages {
  redis: Outage;
  postgres: Outage;
  /**
   * An error from somewhere in the process (a request, a job): logged by the outage of the dependency it names
   * (true), or left to the caller (false: not a connection failure, or not one of these two servers').
   */
  report(err: unknown): boolean;
}

function errorName(err: unknown): string {
  return typeof err === "object" && err !== null ? String((err as { name?: unknown }).name ?? "") : "";
}

/**
 * A socket error names this server: net errors carry the port they tried (the address may be the resolved IP of
 * the configured name, so the port decides), DNS failures the name they could not resolve.
 */
function socketOf(err: unknown, where: string): boolean {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { hostname?: unknown; port?: unknown; cause?: unknown };
  const host = where.slice(0, where.lastIndexOf(":"));
  const port = where.slice(where.lastIndexOf(":") + 1);
  if (e.port !== undefined ? String(e.port) === port : e.hostname !== undefined && String(e.hostname) === host) {
    return true;
  }
  return e.cause !== undefined && e.cause !== err && socketOf(e.cause, where);
}

export function createOutages(opts: {
  redisUrl: string;
  databaseUrl: string;
  logger: OutageLogger;
  /** SELECT 1 through the process's database client. */
  probePostgres: () => Promise<unknown>;
}): Outages {
  const redis = new Outage({
    what: "Redis",
    where: addressOf(opts.redisUrl, 6379),
    retryEveryMs: REDIS_RETRY_EVERY_MS,
    logger: opts.logger,
  });
  const postgres = new Outage({
    what: "PostgreSQL",
    where: addressOf(opts.databaseUrl, 5432),
    retryEveryMs: POSTGRES_RETRY_EVERY_MS,
    logger: opts.logger,
    probe: opts.probePostgres,
  });
  const isPrisma = (err: unknown) => /^(PrismaClient|DriverAdapterError)/.test(errorName(err));
  const isRedis = (err: unknown) =>
    errorName(err) === "MaxRetriesPerRequestError" ||
    REDIS_MESSAGES.some((re) => re.test(String((err as { message?: unknown })?.message ?? "")));
  return {
    redis,
    postgres,
    report(err) {
      if (isPrisma(err) || socketOf(err, postgres.where)) return postgres.report(err);
      if (isRedis(err) || socketOf(err, redis.where)) return redis.report(err);
      return false;
    },
  };
}
