/**
 * File uploads with progress. fetch reports no upload progress, so this sends through XMLHttpRequest, but
 * with exactly what lib/api.ts sends (URL, bearer, tenant-id, lang, international flag) and reads the answer
 * with its envelope rules (code 1 throws the server's message, 401 ends the session): both come from the
 * client's `transport`.
 *
 * Time limit: REQUEST_TIMEOUT_MS without any progress (not for the whole upload: 50 MB on a slow line takes
 * longer than that, and every progress event shows the line is alive). After the last byte the server has the
 * same limit to answer.
 */
import { type ApiClient, api } from "./api";
import { REQUEST_TIMEOUT_MS } from "./constants";

export interface UploadProgress {
  loaded: number;
  /** Bytes to send, or null when the browser cannot tell. */
  total: number | null;
  /** Whole percent 0..100, or null when the total is unknown. */
  percent: number | null;
}

export interface UploadOptions {
  /** Cancels the upload; the promise then rejects with the signal's reason, like fetch. */
  signal?: AbortSignal;
  /** Time allowed without progress. */
  timeoutMs?: number;
}

export interface UploaderDeps {
  client: Pick<ApiClient, "transport">;
  /** Read at call time so tests can stub the global. */
  createXhr: () => XMLHttpRequest;
}

export function createUploader(deps: UploaderDeps) {
  return function upload<T>(
    path: string,
    formData: FormData,
    onProgress?: (progress: UploadProgress) => void,
    opts: UploadOptions = {},
  ): Promise<T> {
    const { prepare, settle, noAnswer } = deps.client.transport;
    // prepare() adds the international flag to the form itself; the form is what goes out.
    const { url, headers } = prepare("POST", path, { data: formData });
    const limit = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const signal = opts.signal;

    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const xhr = deps.createXhr();
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;

      const finish = (outcome: () => T) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      };
      const fail = (error: unknown) =>
        finish(() => {
          throw error;
        });
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          // Settle first: abort() fires the xhr's abort event at once, which must find the promise settled.
          fail(noAnswer("timeout", new Error(`no progress for ${limit} ms`)));
          xhr.abort();
        }, limit);
      };
      function onAbort() {
        fail(signal?.reason);
        xhr.abort();
      }

      xhr.open("POST", url);
      headers.forEach((value, name) => {
        xhr.setRequestHeader(name, value);
      });
      xhr.upload.addEventListener("progress", (event) => {
        arm();
        const total = event.lengthComputable && event.total > 0 ? event.total : null;
        onProgress?.({
          loaded: event.loaded,
          total,
          percent: total === null ? null : Math.min(100, Math.floor((event.loaded / total) * 100)),
        });
      });
      xhr.addEventListener("load", () => finish(() => settle<T>(xhr.status, xhr.responseText)));
      xhr.addEventListener("error", () => fail(noAnswer("network", new Error("upload failed"))));
      xhr.addEventListener("abort", () => {
        // Our own aborts (timeout, caller) have settled already; anything else is a failed request.
        fail(noAnswer("network", new Error("upload aborted")));
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      arm();
      xhr.send(formData);
    });
  };
}

/** POSTs a multipart form to the API, reporting upload progress; resolves with the envelope's data. */
export const uploadWithProgress = createUploader({ client: api, createXhr: () => new XMLHttpRequest() });
