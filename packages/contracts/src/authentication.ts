// Customer identity authentication: submissions with documents, their review, and the seven-day exemption.
import { z } from "zod";
import { AuthStatus } from "./codes";
import { acrossTenants, codeIn, id, int, paging, text, timeRange } from "./common";

/** Who is being authenticated: a person (real name + ID number) or a company (name + licence number). */
export const SubjectType = { INDIVIDUAL: 1, COMPANY: 2 } as const;
export type SubjectType = (typeof SubjectType)[keyof typeof SubjectType];

/** Document uploads of one submission (multipart/form-data field `documents`, repeated). */
export const AUTH_DOCUMENT_FIELD = "documents";
export const AUTH_DOCUMENT_MAX_FILES = 5;
export const AUTH_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Kinds accepted, recognised by the file's first bytes (its name and declared type are not trusted). */
export const AUTH_DOCUMENT_KINDS = ["png", "jpg", "pdf"] as const;

/** Length of the seven-day authentication exemption. */
export const SEVEN_DAY_EXEMPTION_MS = 7 * 24 * 3600 * 1000;

export const sevenDayAuthenticateBody = z.object({ userId: id() });
export type SevenDayAuthenticateBody = z.infer<typeof sevenDayAuthenticateBody>;
export const sevenDayAuthenticateResult = z.object({ userId: z.number().int(), authExemptUntil: z.string() });
export type SevenDayAuthenticateResult = z.infer<typeof sevenDayAuthenticateResult>;

/**
 * The text fields of POST /user/authentication/save. They arrive as multipart form fields (strings), so the
 * subject type is coerced; the documents travel as file parts beside them.
 */
export const authenticationSaveFields = z.object({
  subjectType: codeIn([SubjectType.INDIVIDUAL, SubjectType.COMPANY]),
  /** Real name (individual) or company name. */
  name: text(200, 1),
  /** ID card number (individual) or business licence number (company). */
  idNumber: z
    .string()
    .trim()
    .min(4)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
  contactName: text(100, 1),
  contactPhone: z
    .string()
    .trim()
    .min(5)
    .max(32)
    .regex(/^\+?[0-9][0-9 ()-]*$/),
});
export type AuthenticationSaveFields = z.infer<typeof authenticationSaveFields>;

const reviewStatuses = [AuthStatus.AUTHENTICATING, AuthStatus.AUTHENTICATED, AuthStatus.REJECTED] as const;

export const authenticationListQuery = paging.extend({
  /** 1 authenticating (waiting for review), 2 authenticated, 3 rejected. */
  status: codeIn(reviewStatuses).optional(),
  /** Contained (case-insensitively) in the name, the ID/licence number or the customer's username. */
  keyword: text(100).optional(),
  userId: id().optional(),
  ...timeRange.shape,
});
export type AuthenticationListQuery = z.infer<typeof authenticationListQuery>;

export const authenticationRow = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  user: z.string(),
  /** The customer's owning agent. */
  agentId: z.number().int().nullable(),
  subjectType: z.number().int(),
  name: z.string(),
  idNumber: z.string(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  /** Number of documents; each is fetched with GET /user/authentication/document?id=&index= (0-based). */
  documentCount: z.number().int(),
  /** 1 authenticating, 2 authenticated, 3 rejected */
  status: z.number().int(),
  reason: z.string().nullable(),
  reviewerId: z.number().int().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  ...acrossTenants,
});
export type AuthenticationRow = z.infer<typeof authenticationRow>;
export const authenticationList = z.object({ list: z.array(authenticationRow), total: z.number().int() });
export type AuthenticationList = z.infer<typeof authenticationList>;

export const authenticationPassBody = z.object({ id: id() });
export type AuthenticationPassBody = z.infer<typeof authenticationPassBody>;

export const authenticationRejectBody = z.object({ id: id(), reason: text(500, 1) });
export type AuthenticationRejectBody = z.infer<typeof authenticationRejectBody>;

export const authenticationDocumentQuery = z.object({
  id: id(),
  /** 0-based position of the document in the submission. */
  index: int().pipe(
    z
      .number()
      .min(0)
      .max(AUTH_DOCUMENT_MAX_FILES - 1),
  ),
});
export type AuthenticationDocumentQuery = z.infer<typeof authenticationDocumentQuery>;
