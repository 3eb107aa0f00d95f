// One error type for every expected failure of domain code and routes: an HTTP status and a message key
// (translated per request by the API's envelope). The API's lib/errors re-exports it with its request-input helpers.
import type { MessageKey, MessageParams } from "@switchboard/contracts";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    /** 401 answers carry envelope code 401 (session lost); everything else code 1. */
    readonly envelopeCode: 1 | 401 = status === 401 ? 401 : 1,
  ) {
    super(key);
    this.name = "AppError";
  }
}

export const badRequest = (key: MessageKey, params?: MessageParams) => new AppError(400, key, params);
export const unauthorized = () => new AppError(401, "error.unauthorized");
export const forbidden = () => new AppError(403, "error.forbidden");
/** Missing rows and other tenants' rows answer the same way. */
export const notFound = (entity: MessageKey) => new AppError(404, "error.not_found", { entity });
export const conflict = (key: MessageKey, params?: MessageParams) => new AppError(409, key, params);
