// Platform notices of a tenant: written and published by its admins, read by its customers (/app/notice).
import { z } from "zod";
import { codeIn, id, listOf, paging, text } from "./common";

/** notices.status */
export const NoticeStatus = { PUBLISHED: 1, DRAFT: 2 } as const;
export type NoticeStatus = (typeof NoticeStatus)[keyof typeof NoticeStatus];

export const NOTICE_TITLE_MAX = 200;
export const NOTICE_CONTENT_MAX = 20_000;
/** Length of the plain-text excerpt in the customers' list. */
export const NOTICE_EXCERPT_LENGTH = 160;

const noticeStatus = codeIn([NoticeStatus.PUBLISHED, NoticeStatus.DRAFT]);

/** GET /notice/list (customers): published notices of the caller's tenant, newest first. */
export const noticeListQuery = paging.extend({
  /** Contained (case-insensitively) in the title. */
  keyword: text(100).optional(),
});
export type NoticeListQuery = z.infer<typeof noticeListQuery>;

/** GET /notice/manage/list (admins): every notice of the tenant, drafts included. */
export const noticeManageListQuery = noticeListQuery.extend({ status: noticeStatus.optional() });
export type NoticeManageListQuery = z.infer<typeof noticeManageListQuery>;

export const noticeIdQuery = z.object({ id: id() });
export type NoticeIdQuery = z.infer<typeof noticeIdQuery>;
export const noticeIdBody = noticeIdQuery;
export type NoticeIdBody = NoticeIdQuery;

export const noticeCreateBody = z.object({
  title: text(NOTICE_TITLE_MAX, 1),
  content: text(NOTICE_CONTENT_MAX, 1),
  /** Publish at once; otherwise the notice is saved as a draft. */
  publish: z.boolean().optional(),
});
export type NoticeCreateBody = z.infer<typeof noticeCreateBody>;

/** Edits title and content; the status (draft or published) stays as it is. */
export const noticeEditBody = z.object({
  id: id(),
  title: text(NOTICE_TITLE_MAX, 1),
  content: text(NOTICE_CONTENT_MAX, 1),
});
export type NoticeEditBody = z.infer<typeof noticeEditBody>;

/** A notice as customers read it (GET /notice/detail). */
export const noticeDetail = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  publishedAt: z.string().nullable(),
});
export type NoticeDetail = z.infer<typeof noticeDetail>;

/** A row of the customers' list: the text shortened to an excerpt. */
export const noticeSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  excerpt: z.string(),
  publishedAt: z.string().nullable(),
});
export type NoticeSummary = z.infer<typeof noticeSummary>;
export const noticeList = listOf(noticeSummary);
export type NoticeList = z.infer<typeof noticeList>;

/** A notice as its admins manage it. */
export const noticeRow = noticeDetail.extend({
  /** 1 published, 2 draft */
  status: z.number().int(),
  tenantId: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NoticeRow = z.infer<typeof noticeRow>;
export const noticeManageList = listOf(noticeRow);
export type NoticeManageList = z.infer<typeof noticeManageList>;

export const noticeDeleteResult = z.object({ id: z.number().int() });
export type NoticeDeleteResult = z.infer<typeof noticeDeleteResult>;
