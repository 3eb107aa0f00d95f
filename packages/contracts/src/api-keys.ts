// A customer's named developer API keys (docs/api-keys.md): each with scopes and an optional expiry.
import { z } from "zod";

/** send: create and cancel batches; read: GET routes; manage: anything that changes settings. */
export const API_KEY_SCOPES = ["send", "read", "manage"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const API_KEY_NAME_MAX = 64;
/** Most live (not revoked) keys a customer may hold. */
export const API_KEYS_MAX = 20;

export const apiKeyCreateBody = z.object({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .max(API_KEY_SCOPES.length)
    .transform((s) => [...new Set(s)]),
  /** ISO time; null or absent = never expires. Must be in the future. */
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type ApiKeyCreateBody = z.input<typeof apiKeyCreateBody>;

export const apiKeyRow = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first 8 characters of the key. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyRow = z.infer<typeof apiKeyRow>;

export const apiKeyList = z.object({ list: z.array(apiKeyRow), total: z.number().int() });
export type ApiKeyList = z.infer<typeof apiKeyList>;

/** The answer to creating a key: the key itself, shown this once (only its sha256 is stored). */
export const apiKeyCreated = apiKeyRow.extend({ secretKey: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;

export const apiKeyIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
