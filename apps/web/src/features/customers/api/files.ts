/**
 * Protected files (remittance proofs, authentication documents) need the bearer token, so they cannot be an
 * <img src>: they are fetched here into a blob and shown through an object URL. Errors answer the JSON
 * envelope; its (already translated) message becomes the ApiError's.
 */
import { REFUSAL_STATUS_HEADER } from "@switchboard/contracts/codes";
import { ApiError } from "../../../lib/api";
import { config } from "../../../lib/config";
import { translate } from "../../../lib/i18n";
import { storage } from "../../../lib/storage";
import { UserType } from "../../../lib/user-type";

export interface FetchedFile {
  blob: Blob;
  /** Content type without parameters, e.g. "image/png", "application/pdf". */
  type: string;
}

export async function fetchProtectedFile(
  path: string,
  params: Record<string, string | number>,
  signal?: AbortSignal,
): Promise<FetchedFile> {
  const url = new URL(config.apiBase + path);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  const headers = new Headers({ lang: storage.getLang(), [REFUSAL_STATUS_HEADER]: "200" });
  const token = storage.getToken();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const tenantId = storage.getTenantId();
  if (tenantId && storage.getUserType() !== UserType.SUPER_ADMIN) headers.set("tenant-id", tenantId);

  let response: Response;
  try {
    response = await fetch(url, { headers, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError("network", translate("error.serverRequestFailed", { status: 501 }), { cause: error });
  }
  const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!response.ok || type === "application/json") {
    let message = translate("error.serverRequestFailed", { status: response.status });
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === "string" && body.message) message = body.message;
    } catch {
      // not JSON: keep the status message
    }
    throw new ApiError("business", message, { status: response.status, code: 1 });
  }
  return { blob: await response.blob(), type };
}
