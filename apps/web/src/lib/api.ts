/**
 * The one API client (spec section 7): fetch-based, base address from configuration, bearer token,
 * tenant-id (a super admin's: its working tenant) and lang headers, international flag, 60 s timeout,
 * `{ code, message, data }` envelope.
 *
 * It throws `ApiError` and never shows anything itself: each feature decides what to show
 * (see `useApiErrorMessage`). Code 401 also ends the session and moves to the right login page.
 */
import { REFUSAL_STATUS_HEADER } from "@switchboard/contracts/codes";
import { isSystemLoginPage, loginPathFor } from "../routes/paths";
import { type AppConfig, config } from "./config";
import { REQUEST_TIMEOUT_MS } from "./constants";
import { type MessageKey, type MessageParams, translate } from "./i18n";
import { internationalFlag } from "./international";
import { navigateTo } from "./navigation";
import { type AppStorage, storage } from "./storage";
import { UserType } from "./user-type";

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

export interface ListResult<T> {
  list: T[];
  total: number;
}

export const CODE_OK = 0;
export const CODE_ERROR = 1;
export const CODE_UNAUTHORIZED = 401;

/**
 * - business: the server answered code 1 (message is the server's, already translated)
 * - unauthorized: code 401, the session was cleared
 * - network: fetch failed (no answer at all)
 * - timeout: no answer within the time limit
 * - bad-response: an answer that is not the JSON envelope (e.g. a proxy error page)
 * - empty: a list load returned no list
 */
export type ApiErrorKind = "business" | "unauthorized" | "network" | "timeout" | "bad-response" | "empty";

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ApiErrorKind;
  /** Envelope code, when the server answered with one. */
  readonly code: number | null;
  /** HTTP status, when there was a response. */
  readonly status: number | null;

  constructor(
    kind: ApiErrorKind,
    message: string,
    opts: { code?: number | null; status?: number | null; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.kind = kind;
    this.code = opts.code ?? null;
    this.status = opts.status ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue | readonly (string | number)[]>>;

export interface RequestOptions {
  params?: QueryParams;
  /** JSON body (a plain object) or FormData. */
  data?: Record<string, unknown> | FormData;
  /** Cancels the request (react-query passes one). */
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ApiClientDeps {
  config: Pick<AppConfig, "apiBase" | "variant" | "internationalMode">;
  storage: Pick<
    AppStorage,
    "getToken" | "getUserType" | "getTenantId" | "getWorkingTenantId" | "getLang" | "getInternational" | "clearSession"
  >;
  /** Read at call time so tests can stub the global. */
  fetch: () => typeof fetch;
  currentPath: () => string;
  navigate: (to: string) => void;
  translate: (key: MessageKey, params?: MessageParams) => string;
}

/** What a transport sends for one call. */
export interface PreparedRequest {
  url: string;
  headers: Headers;
  body: BodyInit | undefined;
}

class TimeoutSignal extends Error {}

export function createApiClient(deps: ApiClientDeps) {
  function buildUrl(path: string, params: QueryParams | undefined): string {
    const url = new URL(deps.config.apiBase + (path.startsWith("/") ? path : `/${path}`));
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value === null || value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  function buildHeaders(hasJsonBody: boolean): Headers {
    // Business refusals come back as HTTP 200 with code 1: the browser would log every expected 402 / 403 / 409
    // as a failed request (a red console error), and the envelope's code says the outcome anyway.
    const headers = new Headers({
      Accept: "application/json",
      lang: deps.storage.getLang(),
      [REFUSAL_STATUS_HEADER]: "200",
    });
    if (hasJsonBody) headers.set("Content-Type", "application/json");
    const token = deps.storage.getToken();
    if (token) headers.set("Authorization", `Bearer ${token}`);
    // A super admin's own tenant id is empty: it acts in the working tenant it chose (none = all tenants).
    const tenantId =
      deps.storage.getUserType() === UserType.SUPER_ADMIN
        ? deps.storage.getWorkingTenantId()
        : deps.storage.getTenantId();
    if (tenantId && !isSystemLoginPage(deps.currentPath())) headers.set("tenant-id", tenantId);
    return headers;
  }

  function buildBody(data: RequestOptions["data"], flag: "1" | "0" | null): BodyInit | undefined {
    if (data instanceof FormData) {
      if (flag !== null) data.set("international", flag);
      return data;
    }
    if (data === undefined && flag === null) return undefined;
    return JSON.stringify(flag === null ? data : { ...data, international: Number(flag) });
  }

  function endSession(): void {
    const target = loginPathFor(deps.storage.getUserType(), deps.currentPath(), deps.config.variant);
    deps.storage.clearSession();
    if (deps.currentPath() !== target) deps.navigate(target);
  }

  /** URL, headers and body of a call: every transport (fetch here, XMLHttpRequest in upload.ts) sends these. */
  function prepare(method: "GET" | "POST", path: string, opts: RequestOptions = {}): PreparedRequest {
    const flag = internationalFlag(deps.config, deps.storage);
    const params = method === "GET" && flag !== null ? { ...opts.params, international: flag } : opts.params;
    const body = method === "GET" ? undefined : buildBody(opts.data, flag);
    return { url: buildUrl(path, params), headers: buildHeaders(typeof body === "string"), body };
  }

  /** The error for a request that got no answer: the time limit ran out, or the network failed. */
  function noAnswer(kind: "timeout" | "network", cause: unknown, status: number | null = null): ApiError {
    return kind === "timeout"
      ? new ApiError("timeout", deps.translate("error.timeout"), { status, cause })
      : new ApiError("network", deps.translate("error.serverRequestFailed", { status: 501 }), { cause });
  }

  /** Reads an answer: the envelope's data on code 0; otherwise throws (code 401 also ends the session). */
  function settle<T>(status: number | null, text: string): T {
    const envelope = parseEnvelope<T>(text);
    if (!envelope) {
      throw new ApiError("bad-response", deps.translate("error.serverRequestFailed", { status: status ?? 501 }), {
        status,
      });
    }
    if (envelope.code === CODE_OK) return envelope.data;
    if (envelope.code === CODE_UNAUTHORIZED) {
      endSession();
      throw new ApiError("unauthorized", envelope.message || deps.translate("error.sessionExpired"), {
        code: envelope.code,
        status,
      });
    }
    throw new ApiError("business", envelope.message || deps.translate("error.unknown"), {
      code: envelope.code,
      status,
    });
  }

  async function request<T>(method: "GET" | "POST", path: string, opts: RequestOptions = {}): Promise<T> {
    const { url, headers, body } = prepare(method, path, opts);

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new TimeoutSignal()), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const outer = opts.signal;
    const forwardAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) forwardAbort();
    else outer?.addEventListener("abort", forwardAbort, { once: true });

    let status: number | null = null;
    let text: string;
    try {
      const response = await deps.fetch()(url, { method, headers, body, signal: controller.signal });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (controller.signal.reason instanceof TimeoutSignal) throw noAnswer("timeout", error, status);
      // The caller cancelled (react-query unmounts, a newer search): pass the abort on unchanged.
      if (outer?.aborted) throw error;
      throw noAnswer("network", error);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", forwardAbort);
    }
    return settle<T>(status, text);
  }

  return {
    get: <T>(path: string, opts?: Omit<RequestOptions, "data">) => request<T>("GET", path, opts),
    post: <T>(path: string, data?: RequestOptions["data"], opts?: Omit<RequestOptions, "data">) =>
      request<T>("POST", path, { ...opts, data }),
    /** GET of a `{ list, total }` page; a response without a list is 'load failed'. */
    async getList<T>(path: string, opts?: Omit<RequestOptions, "data">): Promise<ListResult<T>> {
      const data = await request<ListResult<T> | null>("GET", path, opts);
      if (!data || !Array.isArray(data.list)) throw new ApiError("empty", deps.translate("error.loadFailed"));
      return { list: data.list, total: typeof data.total === "number" ? data.total : data.list.length };
    },
    /** The pieces of a call for other transports (lib/upload.ts): same headers, envelope and 401 rules. */
    transport: { prepare, settle, noAnswer },
  };
}

function parseEnvelope<T>(text: string): Envelope<T> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON (an HTML error page of a proxy, an empty body): the caller reports the HTTP status.
    return null;
  }
  if (typeof value !== "object" || value === null || typeof (value as { code?: unknown }).code !== "number") {
    return null;
  }
  const envelope = value as Envelope<T>;
  return {
    code: envelope.code,
    message: typeof envelope.message === "string" ? envelope.message : "",
    data: envelope.data,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export const api: ApiClient = createApiClient({
  config,
  storage,
  fetch: () => globalThis.fetch,
  currentPath: () => window.location.pathname,
  navigate: navigateTo,
  translate: (key, params) => translate(key, params),
});
