// Errors of the API: AppError (an HTTP status and a message key, translated per request) comes from the domain
// package, which throws it too; here beside it, what only a route's input needs.
import { AppError } from "@switchboard/domain/errors";
import type { z } from "zod";

export { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from "@switchboard/domain/errors";

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

/**
 * The path ("content.text", "numbers.3") of the first string or key holding a NUL character in parsed input,
 * "" when it is the value itself, null when there is none. PostgreSQL cannot store NUL in text, so such input
 * is refused as a whole before anything reads it.
 */
export function nulField(value: unknown): string | null {
  const path = nulPath(value, 0);
  return path === null ? null : path.reverse().join(".");
}

/**
 * nulField's walk: every request's params, query and body pass here, so it builds nothing while it finds nothing
 * (the path's keys are collected, innermost first, only on the way back from a NUL), and walks arrays by index.
 */
function nulPath(value: unknown, depth: number): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? [] : null;
  // Raw bodies (provider webhooks, files) are bytes for their own readers, not text fields.
  if (typeof value !== "object" || value === null || depth > 32 || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], depth + 1);
      if (found !== null) {
        found.push(String(i));
        return found;
      }
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes("\u0000")) return depth === 0 ? ["body"] : [];
    const found = nulPath((value as Record<string, unknown>)[key], depth + 1);
    if (found !== null) {
      found.push(key);
      return found;
    }
  }
  return null;
}

/** Parses input with a contract, or throws InputValidationError (a NUL character anywhere is a 400 too). */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown, context = "body"): z.output<T> {
  const field = nulField(data);
  if (field !== null) throw new AppError(400, "validation.nul", { field: field || context });
  const r = schema.safeParse(data);
  if (!r.success) throw new InputValidationError(r.error.issues, context);
  return r.data;
}
