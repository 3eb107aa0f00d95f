// The only place that reads process.env: everything else receives a Config.
import { DEV_CHANNEL_SECRET_KEY } from "@switchboard/channels";
import { z } from "zod";

const DEV_JWT_SECRET = "switchboard-dev-secret-change-me-0123456789";
/** The development default of CHANNEL_SECRET_KEY (refused in production); the demo seed seals with it. */

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.string().min(1),
    REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
    /** Prefix of every Redis key this process writes (tests give each run its own). */
    REDIS_PREFIX: z.string().default("sb:"),
    JWT_SECRET: z.string().min(1).default(DEV_JWT_SECRET),
    /** AES-256-GCM key for channel credentials: 32 bytes as 64 hex characters or base64. */
    CHANNEL_SECRET_KEY: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, "must be 32 bytes as 64 hex characters or base64")
      .default(DEV_CHANNEL_SECRET_KEY),
    /** Session lifetime in seconds. */
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600)
      .default(12 * 3600),
    /** Public address of this API, used to make logo paths absolute; else the request's own origin. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** Where uploaded files (logos, proofs, documents, batch files) are kept. */
    UPLOAD_DIR: z.string().default(".data/uploads"),
    /** Comma-separated origins allowed by CORS (the web client); empty = any origin in development. */
    CORS_ORIGINS: z.string().default(""),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /**
     * Let callbacks (notify URL tests, status reports) reach loopback and private addresses. Off by default: a
     * customer's URL must not reach into our own network. On for a single-machine or on-premises install.
     */
    CALLBACK_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"]).default("false"),
    /** Mode 1 (single number) submissions wait at most this long for the provider's answer. */
    BATCH_SINGLE_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(30_000),
    /**
     * Developer API (/v1) limit per customer (its secret key), shared by every API process through Redis: calls
     * per second on average, and the burst a customer may spend at once after a quiet moment. Over it: 429.
     */
    DEVELOPER_API_RATE_PER_SECOND: z.coerce.number().positive().default(20),
    DEVELOPER_API_BURST: z.coerce.number().int().min(1).default(40),
    /** Trust X-Forwarded-For from a reverse proxy (docker compose puts one in front). */
    TRUST_PROXY: z.enum(["true", "false"]).default("false"),
    /** Sign-in limits: attempts per IP per minute, failures per account per window. */
    LOGIN_IP_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    LOGIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
    LOGIN_ACCOUNT_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(15 * 60),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === "production" && (c.JWT_SECRET === DEV_JWT_SECRET || c.JWT_SECRET.length < 32)) {
      ctx.addIssue({
        code: "custom",
        path: ["JWT_SECRET"],
        message: "production needs JWT_SECRET set to a random value of at least 32 characters",
      });
    }
    if (c.NODE_ENV === "production" && c.CHANNEL_SECRET_KEY === DEV_CHANNEL_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["CHANNEL_SECRET_KEY"],
        message: "production needs CHANNEL_SECRET_KEY set to 32 random bytes (openssl rand -hex 32)",
      });
    }
  });

export type Config = z.infer<typeof schema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = schema.safeParse(env);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join("\n")}`);
  }
  return r.data;
}
