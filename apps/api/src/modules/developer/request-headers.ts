// The request headers the developer API reads besides the secret key, declared in the OpenAPI document so that
// generated clients (packages/sdk) type them: `lang` on every /v1 operation (the language of `message` and of
// translated fields), `Idempotency-Key` on the operations that create a batch. They are read by the routes
// themselves (lang: lib/lang.ts, any other value falls back to the default; the key: checked by idempotencyKey()),
// so they are documented here rather than validated by a route schema.
import { IDEMPOTENCY_KEY_MAX } from "@switchboard/contracts";

/** Operations that take an Idempotency-Key (developer-api.routes.ts, idempotencyKey()). */
const IDEMPOTENT = new Set(["post /v1/messages", "post /v1/messages/file", "post /v1/batches/{id}/send-reachable"]);

const LANG = {
  name: "lang",
  in: "header",
  required: false,
  description:
    "Language of the answer's `message` and translated fields: zh or en (also zh-*, en-*); without it, " +
    "Accept-Language when it starts with en, else zh.",
  schema: { type: "string", examples: ["en", "zh"] },
};

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the same key returns the batch it created (Idempotent-Replayed: true), never a second " +
    "one; a different request under a known key answers 409.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX, pattern: "^[\\x21-\\x7e]+$" },
};

type Operation = { parameters?: Array<{ name: string; in: string }> };

/** Adds the two headers to the /v1 operations of an OpenAPI document (swagger's transformObject). */
export function declareRequestHeaders<T extends { paths?: Record<string, unknown> }>(doc: T): T {
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith("/v1/") || item === null || typeof item !== "object") continue;
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      const wanted = [LANG, ...(IDEMPOTENT.has(`${method} ${path}`) ? [IDEMPOTENCY_KEY] : [])];
      const present = new Set((op.parameters ?? []).map((p) => `${p.in} ${p.name.toLowerCase()}`));
      op.parameters = [
        ...(op.parameters ?? []),
        ...wanted.filter((p) => !present.has(`${p.in} ${p.name.toLowerCase()}`)),
      ];
    }
  }
  return doc;
}
