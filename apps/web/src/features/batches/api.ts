/**
 * The batch screens' calls (docs/batches.md): lists, detail, recipients, review, schedule, cancel, terminate,
 * and the CSV exports (downloaded through fetch with the bearer header, streamed into a blob).
 */
import type {
  BatchDetail,
  BatchList,
  BatchReply,
  BatchReplyList,
  BatchRow,
  RecipientList,
  RecipientRow,
  UserSearchResult,
} from "@switchboard/contracts";
import { REFUSAL_STATUS_HEADER, UserType } from "@switchboard/contracts/codes";
import { ApiError, api } from "../../lib/api";
import { config } from "../../lib/config";
import { internationalFlag } from "../../lib/international";
import { storage } from "../../lib/storage";

export type { BatchDetail, BatchReply, BatchRow, RecipientRow };

export type ListParams = Record<string, string | number>;

export const batchKeys = {
  all: ["batches"] as const,
  list: (params: ListParams) => ["batches", "list", params] as const,
  detail: (id: string) => ["batches", "detail", id] as const,
  recipients: (id: string, params: ListParams) => ["batches", "recipients", id, params] as const,
  replies: (id: string, params: ListParams) => ["batches", "replies", id, params] as const,
  customers: (keyword: string) => ["batches", "customers", keyword] as const,
  /** Whether the customer can send with a product code (in the answer's language: its reasons are translated). */
  productAvailability: (productCode: number, lang: string) =>
    ["batches", "product-availability", productCode, lang] as const,
};

export const fetchBatchList = (params: ListParams, signal?: AbortSignal) =>
  api.getList<BatchRow>("/batch/list", { params, signal }) as Promise<BatchList>;

export const fetchBatchDetail = (id: string, signal?: AbortSignal) =>
  api.get<BatchDetail>("/batch/detail", { params: { id }, signal });

export const fetchRecipients = (id: string, params: ListParams, signal?: AbortSignal) =>
  api.getList<RecipientRow>("/batch/recipients", { params: { ...params, id }, signal }) as Promise<RecipientList>;

export const fetchReplies = (id: string, params: ListParams, signal?: AbortSignal) =>
  api.getList<BatchReply>("/batch/replies", { params: { ...params, id }, signal }) as Promise<BatchReplyList>;

export const searchCustomers = (keyword: string, signal?: AbortSignal) =>
  api.get<UserSearchResult>("/user/search", {
    params: { keyword: keyword || undefined, type: UserType.USER },
    signal,
  });

export const cancelBatch = (id: string) => api.post<BatchRow>("/batch/cancel", { id });
export const terminateBatch = (id: string) => api.post<BatchRow>("/batch/terminate", { id });
export const passReview = (id: string, scheduledAt: string | null) =>
  api.post<BatchRow>("/batch/review/pass", scheduledAt ? { id, scheduledAt } : { id });
export const rejectReview = (id: string, reason: string) => api.post<BatchRow>("/batch/review/reject", { id, reason });
export const changeSchedule = (id: string, scheduledAt: string | null) =>
  api.post<BatchRow>("/batch/schedule", { id, scheduledAt });

// ---------------------------------------------------------------- CSV downloads

/** `attachment; filename="x.csv"` or RFC 5987 `filename*=UTF-8''x.csv`; null when absent or unreadable. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name ? name.replace(/[/\\]/g, "_") : null;
}

function downloadHeaders(): Headers {
  const headers = new Headers({ Accept: "text/csv", lang: storage.getLang(), [REFUSAL_STATUS_HEADER]: "200" });
  const token = storage.getToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const tenantId = storage.getTenantId();
  if (tenantId && storage.getUserType() !== UserType.SUPER_ADMIN) headers.set("tenant-id", tenantId);
  return headers;
}

/** The browser's IANA time zone ("Asia/Shanghai"): exports write their times on the reader's clock. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Reads an error answer (the JSON envelope) into the message to show. */
async function downloadError(response: Response, fallback: string): Promise<ApiError> {
  try {
    const body = (await response.json()) as { code?: number; message?: string };
    if (typeof body.message === "string" && body.message) {
      return new ApiError(body.code === 401 ? "unauthorized" : "business", body.message, {
        code: body.code ?? null,
        status: response.status,
      });
    }
  } catch {
    // not JSON
  }
  return new ApiError("bad-response", fallback, { status: response.status });
}

export interface Download {
  fileName: string;
  blob: Blob;
}

/**
 * GETs a CSV export with the session's headers and reads the body as a stream into a blob. The file name is
 * the response's (content-disposition) when the browser may read it, else `fallbackName`.
 */
export async function downloadCsv(
  path: string,
  params: Record<string, string | number | undefined>,
  fallbackName: string,
  failedText: string,
): Promise<Download> {
  const url = new URL(config.apiBase + path);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== "") url.searchParams.set(key, String(value));
  }
  const flag = internationalFlag();
  if (flag !== null) url.searchParams.set("international", flag);
  let response: Response;
  try {
    response = await globalThis.fetch(url.toString(), { headers: downloadHeaders() });
  } catch (error) {
    throw new ApiError("network", failedText, { cause: error });
  }
  if (!response.ok || (response.headers.get("content-type") ?? "").includes("application/json")) {
    throw await downloadError(response, failedText);
  }
  const chunks: BlobPart[] = [];
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
  } else {
    chunks.push(await response.arrayBuffer());
  }
  const blob = new Blob(chunks, { type: response.headers.get("content-type") ?? "text/csv" });
  const fileName = fileNameFromDisposition(response.headers.get("content-disposition")) ?? fallbackName;
  return { fileName, blob };
}

/** Hands a blob to the browser as a file download. */
export function saveBlob({ fileName, blob }: Download): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = href;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
