// One error type for every expected failure: an HTTP status and a message key (translated per request).
import type { MessageKey, MessageParams } from "@switchboard/contracts";
import type { z } from "zod";

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

/**
 * Input that a route validates itself (multipart form fields, which the schema compiler cannot see) failed its
 * contract: answered 400 with the same field-named message as a schema validation error.
 */
export class InputValidationError extends Error {
  constructor(
    readonly issues: readonly z.core.$ZodIssue[],
    readonly context: string = "body",
  ) {
    super("input validation failed");
    this.name = "InputValidationError";
  }
}

/** Parses input with a contract, or throws InputValidationError. */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown, context = "body"): z.output<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new InputValidationError(r.error.issues, context);
  return r.data;
}
