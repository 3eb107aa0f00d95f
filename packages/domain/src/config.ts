// The only place that reads process.env: everything else receives a Config.
// There is no default secret anywhere in the code: `npm start` generates the demo's own on first start
// (scripts/lib/local-secrets.ts), docker compose and production take them from the environment, and tests
// generate one per run. A secret written in the repository would sign sessions for anyone who reads it.

import { isIP } from "node:net";
import { parseEgressAllow } from "@switchboard/channels";
import { z } from "zod";
import { parseClusterNodes } from "./redis";

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().min(1),
  /**
   * Statements prepared once per connection (createPrisma). false behind a pooler that does not keep a session's
   * prepared statements (PgBouncer in transaction mode before 1.21).
   */
  DATABASE_PREPARED_STATEMENTS: z.stringbool().default(true),
  REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
  /**
   * A Redis Cluster instead of the one Redis at REDIS_URL: some of its nodes (the rest are discovered), comma-
   * separated `host:port`, or `redis://[user:password@]host:port` / `rediss://...` (TLS) to give a password or TLS
   * for every node. Empty: REDIS_URL. docs/operations.md, "Redis Cluster".
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return undefined;
      try {
        return parseClusterNodes(v);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /** Prefix of every Redis key this process writes (tests give each run its own). */
  REDIS_PREFIX: z.string().default("sb:"),
  /** HS256 key of session tokens: at least 32 random characters (`openssl rand -hex 32`). */
  JWT_SECRET: z.string().min(32, "must be at least 32 random characters (openssl rand -hex 32)"),
  /** AES-256-GCM key for channel credentials: 32 bytes as 64 hex characters or base64. */
  CHANNEL_SECRET_KEY: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, "must be 32 bytes as 64 hex characters or base64"),
  /** Session lifetime in seconds. */
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(12 * 3600),
  /** Public address of this API, used to make logo paths absolute; else the request's own origin. */
  PUBLIC_BASE_URL: z.url().optional(),
  /**
   * Tracked links (docs/batches.md, "Tracked links"): the address short links are served from, `<this>/l/<code>`
   * (the API's public address, no trailing slash; its length counts in every SMS segment count). Empty:
   * PUBLIC_BASE_URL, else http://HOST:PORT.
   */
  LINK_BASE_URL: optional(
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL like https://sb.example.com" })
      .max(100)
      .refine((v) => !v.endsWith("/") && !/[?#]/.test(v), "must end without a slash, query or fragment"),
  ),
  /**
   * Key of the tracked links' codes (HMAC-SHA256): at least 32 random characters. Changing it makes every short
   * link sent before answer 404. Empty: derived from JWT_SECRET (then rotating that one does the same).
   */
  LINK_SECRET: optional(z.string().min(32, "must be at least 32 random characters (openssl rand -hex 32)")),
  /**
   * Where uploaded files (logos, proofs, documents, batch files) are kept: "local", the folder UPLOAD_DIR (every
   * API and worker process must see the same one), or "s3", a bucket of an S3-compatible store (S3_* below).
   * docs/operations.md, "Uploads: local disk or S3-compatible storage".
   */
  STORAGE: z.enum(["local", "s3"]).default("local"),
  /** STORAGE=local: the folder of uploaded files. */
  UPLOAD_DIR: z.string().default(".data/uploads"),
  /** STORAGE=s3: the store's address (http(s)://host[:port]); empty for AWS S3 itself (S3_REGION decides). */
  S3_ENDPOINT: optional(z.url({ protocol: /^https?$/, error: "must be an http(s) URL like https://s3.example.com" })),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** STORAGE=s3: the bucket (required then; it must exist). */
  S3_BUCKET: optional(
    z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 of a-z 0-9 . -)"),
  ),
  /** Prepended to every object key ("switchboard/"); a trailing slash is added when missing. Empty: none. */
  S3_PREFIX: z
    .string()
    .default("")
    .transform((v) => (v === "" || v.endsWith("/") ? v : `${v}/`))
    .pipe(
      z
        .string()
        .refine(
          (v) => v === "" || (!v.startsWith("/") && !/(^|\/)\.{0,2}\//.test(v) && !v.includes("\\")),
          "must be a relative folder like switchboard/",
        ),
    ),
  /** Path-style addressing (http://host/bucket/key): most S3-compatible stores (MinIO...) need it. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /** Both or neither; neither: the SDK's own chain (AWS_* variables, an instance or task role). Never logged. */
  S3_ACCESS_KEY_ID: optional(z.string()),
  S3_SECRET_ACCESS_KEY: optional(z.string()),
  /**
   * Origins (scheme://host[:port], comma-separated) whose pages may call this API from a browser: the web
   * client's. Empty: no cross-origin caller at all (the web client then has to be served from the API's own
   * origin). Never "any": a page on any site could otherwise read answers with a token it got hold of.
   */
  CORS_ORIGINS: z
    .string()
    .default("")
    .transform((v) => list(v))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9a-fA-F:]+\](?::\d{1,5})?$/,
            "must be origins like https://app.example.com",
          ),
      ),
    ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Exceptions to the egress policy, which refuses loopback, private, link-local and reserved addresses for
   * every connection to an address a tenant admin or customer typed (channel hosts and URLs, notify URLs).
   * Comma-separated IPs or CIDR ranges, each optionally with :port, IPv6 in brackets:
   * "127.0.0.1:2775,10.20.0.0/16,[fd00::5]:443". Empty: no exceptions.
   */
  EGRESS_ALLOW: z
    .string()
    .default("")
    .superRefine((text, ctx) => {
      try {
        parseEgressAllow(text);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  /** Mode 1 (single number) submissions wait at most this long for the provider's answer. */
  BATCH_SINGLE_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(30_000),
  /**
   * Developer API (/v1) limit per customer (its secret key), shared by every API process through Redis: calls
   * per second on average, and the burst a customer may spend at once after a quiet moment. Over it: 429.
   */
  DEVELOPER_API_RATE_PER_SECOND: z.coerce.number().positive().default(20),
  DEVELOPER_API_BURST: z.coerce.number().int().min(1).default(40),
  /**
   * Addresses of the reverse proxies in front of this API (IPs or CIDRs, comma-separated): only a request
   * from one of them has its X-Forwarded-For believed (the client IP that the sign-in limit and the developer
   * API's IP whitelist see). Empty: none, the connection's own address counts. "true" is refused: with the
   * port reachable directly, any caller could claim any address.
   */
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((v) => list(v))
    .pipe(z.array(z.string().refine(isIpOrCidr, "must be IP addresses or CIDRs of the proxies, e.g. 10.0.0.0/8"))),
  /**
   * Who may read GET /metrics (the API's, and the workers' ops server's): callers from these addresses (IPs or
   * CIDRs, comma-separated; loopback by default), or any caller presenting METRICS_TOKEN as a bearer token.
   * Everybody else gets 404. See docs/operations.md, "Metrics and dashboards".
   */
  METRICS_ALLOW: z
    .string()
    .default("127.0.0.1,::1")
    .transform((v) => list(v))
    .pipe(z.array(z.string().refine(isIpOrCidr, "must be IP addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8"))),
  /** Bearer token for scrapers from other hosts (Prometheus in compose): at least 16 random characters. */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.string().min(16, "must be at least 16 random characters (openssl rand -hex 16)").optional()),
  /**
   * The workers' ops server (GET /health, GET /metrics): its address and port; port 0 runs none. Loopback by
   * default; in compose it listens on every interface of the private network (Prometheus, the healthcheck).
   */
  WORKERS_OPS_HOST: z.string().default("127.0.0.1"),
  WORKERS_OPS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Sign-in limits: attempts per IP per minute, failures per account per window. */
  LOGIN_IP_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LOGIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_ACCOUNT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
});

/** Settings that only count together. */
const checked = schema.superRefine((c, ctx) => {
  if (c.STORAGE === "s3" && !c.S3_BUCKET)
    ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "is required with STORAGE=s3" });
  if (!c.S3_ACCESS_KEY_ID !== !c.S3_SECRET_ACCESS_KEY)
    ctx.addIssue({
      code: "custom",
      path: [c.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
      message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or neither, for the SDK's own credentials)",
    });
});

export type Config = z.infer<typeof schema>;

/** Every variable loadConfig reads (npm run check:compose: each one is in .env.example and reaches compose's app services). */
export const CONFIG_VARIABLES = Object.keys(schema.shape) as Array<keyof Config>;

/** An optional setting: unset or empty (compose passes "${NAME:-}") reads as absent. */
function optional<T extends z.ZodType<string, string>>(inner: T) {
  return z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(inner.optional());
}

/** A comma-separated setting as its entries. */
function list(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function isIpOrCidr(entry: string): boolean {
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (version === 4 ? 32 : 128);
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = checked.safeParse(env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return r.data;
}
