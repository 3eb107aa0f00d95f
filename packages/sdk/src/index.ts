// @switchboard/sdk: a typed client of the developer API (/v1) for a customer's own systems, and the webhooks'
// types and signature check. The types are generated from the API's OpenAPI document (src/schema.d.ts,
// `npm run sdk:generate`); the client is openapi-fetch over them, so every path, parameter, body and answer is
// checked by TypeScript and nothing else runs between the caller and fetch.
//
//   const sb = createSwitchboardClient({ baseUrl: "https://api.example.com", apiKey: process.env.SWITCHBOARD_KEY!, lang: "en" });
//   const { data, error } = await sb.GET("/v1/batches/{id}", { params: { path: { id } } });
//   if (error) throw new Error(error.message);   // { code: 1, message: "<in lang>", data: null }
//   data.data.status;                           // the envelope { code: 0, message, data }
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths, webhooks } from "./schema";
export * from "./webhooks";

/** The languages the API answers in: error messages (`message`) and translated fields follow the `lang` header. */
export type Lang = "zh" | "en";

export interface SwitchboardClientOptions {
  /** The API's address, e.g. `https://api.example.com` (no trailing /v1: the paths carry it). */
  baseUrl: string;
  /** A secret key (`sk_...`) with the scopes the calls need: send, read, manage. */
  apiKey: string;
  /** Language of error messages and translated fields (default: the API's, zh). */
  lang?: Lang;
  /** A fetch of your own (tests, proxies, retries). Default: globalThis.fetch. */
  fetch?: ClientOptions["fetch"];
  /**
   * More headers sent on every call. Per call, the document's own headers are typed parameters
   * (`params: { header: { "Idempotency-Key": "order-1001" } }` on the routes that create a batch, `lang` on all).
   */
  headers?: Record<string, string>;
}

export type SwitchboardClient = Client<paths>;

/** Every /v1 path, with the methods it answers. */
export type V1Path = keyof paths;

/** The JSON answer of a path and method for an HTTP status: `V1Answer<"/v1/balance", "get">` is the envelope. */
export type V1Answer<P extends V1Path, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends Record<S, { content: { "application/json": infer J } }>
    ? J
    : never
  : never;

/** The `data` of a successful answer: `V1Data<"/v1/balance", "get">` is `{ balance, currency }`. */
export type V1Data<P extends V1Path, M extends keyof paths[P]> = V1Answer<P, M> extends { data: infer D } ? D : never;

/** An error answer (HTTP 4xx or 5xx): `code` 1 (or 401 when the key is missing or wrong), `message` in `lang`. */
export interface ErrorEnvelope {
  code: number;
  message: string;
  data: null;
}

/**
 * A client of the developer API. The key travels as `Authorization: Bearer <apiKey>`; `lang` as the `lang`
 * header. Each method answers `{ data, error, response }`: `data` is the envelope `{ code: 0, message, data }` on
 * 2xx, `error` the envelope `{ code, message, data: null }` otherwise (typed per route), `response` the fetch
 * Response (status, Retry-After, X-RateLimit-Remaining, Idempotent-Replayed).
 */
export function createSwitchboardClient(options: SwitchboardClientOptions): SwitchboardClient {
  if (!options.apiKey) throw new TypeError("createSwitchboardClient: apiKey is required");
  const headers: Record<string, string> = {
    ...options.headers,
    authorization: `Bearer ${options.apiKey}`,
  };
  if (options.lang) headers.lang = options.lang;
  return createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
