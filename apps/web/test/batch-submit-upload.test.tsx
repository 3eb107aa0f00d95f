import { ProductCode } from "@switchboard/contracts/codes";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App, ConfigProvider } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "../src/app/providers";
import { DirectTaskModal } from "../src/features/batch-submit/components/DirectTaskModal";
import { type ApiClientDeps, ApiError, createApiClient } from "../src/lib/api";
import { translate } from "../src/lib/i18n";
import { createQueryClient } from "../src/lib/query";
import { storage } from "../src/lib/storage";
import { createUploader, type UploadProgress } from "../src/lib/upload";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch } from "./helpers";

const BASE = "http://api.test";

/** Just enough of XMLHttpRequest: records the request; the test drives progress and the answer. */
class FakeXhr extends EventTarget {
  static all: FakeXhr[] = [];
  readonly upload = new EventTarget();
  method = "";
  url = "";
  readonly headers = new Headers();
  body: unknown = undefined;
  status = 0;
  responseText = "";
  aborted = false;

  constructor() {
    super();
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new Event("abort"));
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.dispatchEvent(Object.assign(new Event("progress"), { loaded, total, lengthComputable }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = typeof body === "string" ? body : JSON.stringify(body);
    this.dispatchEvent(new Event("load"));
  }
  fail() {
    this.dispatchEvent(new Event("error"));
  }
}

function uploader(opts: { path?: string; internationalMode?: boolean } = {}) {
  const navigate = vi.fn<(to: string) => void>();
  let path = opts.path ?? "/app/sms/message/task";
  const deps: ApiClientDeps = {
    config: { apiBase: BASE, variant: "full", internationalMode: opts.internationalMode ?? false },
    storage,
    fetch: () => globalThis.fetch,
    currentPath: () => path,
    navigate: (to) => {
      navigate(to);
      path = to;
    },
    translate: (key, params) => translate(key, params),
  };
  const upload = createUploader({
    client: createApiClient(deps),
    createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
  });
  return { upload, navigate };
}

function form() {
  const data = new FormData();
  data.set("productCode", "3000");
  data.set("file", new File(["+8613800138000\n"], "numbers.csv", { type: "text/csv" }));
  return data;
}

const lastXhr = () => {
  const xhr = FakeXhr.all.at(-1);
  if (!xhr) throw new Error("no request was sent");
  return xhr;
};

beforeEach(() => {
  FakeXhr.all = [];
  storage.setLang("en");
  storage.saveSession("tok-9", { userType: UserType.USER, tenantId: "7", agentId: "5" });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("uploadWithProgress", () => {
  it("sends the API client's headers and flag, reports progress and returns the envelope's data", async () => {
    storage.setInternational(false);
    const { upload } = uploader({ internationalMode: true });
    const progress: UploadProgress[] = [];
    const data = form();
    const pending = upload<{ id: string }>("/batch/submit/file", data, (p) => progress.push(p));
    const xhr = lastXhr();
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe(`${BASE}/batch/submit/file`);
    expect(xhr.headers.get("Authorization")).toBe("Bearer tok-9");
    expect(xhr.headers.get("tenant-id")).toBe("7");
    expect(xhr.headers.get("lang")).toBe("en");
    // multipart: the browser sets the content type with its boundary
    expect(xhr.headers.has("Content-Type")).toBe(false);
    expect(xhr.body).toBe(data);
    expect(data.get("international")).toBe("0");

    xhr.progress(0, 2_000);
    xhr.progress(500, 2_000);
    xhr.progress(2_000, 2_000);
    xhr.progress(10, 0, false);
    expect(progress).toEqual([
      { loaded: 0, total: 2_000, percent: 0 },
      { loaded: 500, total: 2_000, percent: 25 },
      { loaded: 2_000, total: 2_000, percent: 100 },
      { loaded: 10, total: null, percent: null },
    ]);
    xhr.respond(200, envelope({ id: "123" }));
    await expect(pending).resolves.toEqual({ id: "123" });
  });

  it("throws the server's message on code 1", async () => {
    const { upload } = uploader();
    const pending = upload("/batch/submit/file", form());
    lastXhr().respond(413, envelope(null, 1, "the file can be at most 50 MB"));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: "business", code: 1, status: 413, message: "the file can be at most 50 MB" });
  });

  it("ends the session on 401 and goes to the customer login", async () => {
    const { upload, navigate } = uploader();
    const pending = upload("/user/submit/pre/file", form());
    lastXhr().respond(401, envelope(null, 401, "token expired"));
    await expect(pending).rejects.toMatchObject({ kind: "unauthorized", message: "token expired" });
    expect(storage.getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith("/login");
  });

  it("reports an answer that is not the envelope, and a network failure", async () => {
    const { upload } = uploader();
    const first = upload("/batch/submit/file", form());
    lastXhr().respond(502, "<html>Bad Gateway</html>");
    await expect(first).rejects.toMatchObject({ kind: "bad-response", message: "server request failed (502)" });
    const second = upload("/batch/submit/file", form());
    lastXhr().fail();
    await expect(second).rejects.toMatchObject({ kind: "network", message: "server request failed (501)" });
  });

  it("times out after 60 s without progress, counted from the last progress event", async () => {
    vi.useFakeTimers();
    const { upload } = uploader();
    const pending = upload("/batch/submit/file", form()).catch((e: unknown) => e);
    const xhr = lastXhr();
    await vi.advanceTimersByTimeAsync(59_000);
    xhr.progress(1, 10);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(xhr.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(xhr.aborted).toBe(true);
    await expect(pending).resolves.toMatchObject({ kind: "timeout" });
  });

  it("passes a caller's cancellation on unchanged", async () => {
    const { upload } = uploader();
    const controller = new AbortController();
    const pending = upload("/batch/submit/file", form(), undefined, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    controller.abort(new DOMException("closed", "AbortError"));
    const error = await pending;
    expect(lastXhr().aborted).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: "AbortError" });
  });
});

describe("the modal's file mode", () => {
  it("uploads the file for the check and again for the submission, with a progress bar", {
    timeout: 15_000,
  }, async () => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    mockFetch({
      "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
    });
    const onSubmitted = vi.fn<(id: string) => void>();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <ConfigProvider theme={{ token: { motion: false } }}>
          <App>
            <DirectTaskModal productCode={ProductCode.SMS} open onClose={() => {}} onSubmitted={onSubmitted} />
          </App>
        </ConfigProvider>
      </AppProviders>,
    );
    await userEvent.click(await screen.findByTestId("task-mode-file"));
    const file = new File(["phone\n+8613800138000\n+6591234567\n"], "numbers.csv", { type: "text/csv" });
    fireEvent.change(screen.getByTestId("task-file-input"), { target: { files: [file] } });
    expect(await screen.findByText(/numbers\.csv/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Hello" } });
    await userEvent.click(screen.getByTestId("task-check"));

    const pre = lastXhr();
    expect(new URL(pre.url).pathname).toBe("/user/submit/pre/file");
    const preForm = pre.body as FormData;
    expect(preForm.get("productCode")).toBe("3000");
    expect(preForm.get("taskType")).toBe("2");
    expect(JSON.parse(String(preForm.get("content")))).toEqual({ product: 3000, text: "Hello" });
    expect((preForm.get("file") as File).name).toBe("numbers.csv");

    pre.progress(300, 1_000);
    const bar = await screen.findByTestId("task-upload-progress");
    await waitFor(() => expect(within(bar).getByRole("progressbar")).toHaveAttribute("aria-valuenow", "30"));
    pre.progress(1_000, 1_000);
    pre.respond(
      200,
      envelope({
        total: 2,
        valid: 2,
        invalid: 0,
        duplicate: 0,
        rejected: [],
        notServed: 0,
        windowClosed: 0,
        countries: [
          {
            countryCode: "CN",
            count: 1,
            served: true,
            reason: null,
            unitPrice: "0.0500",
            fallbackPrice: null,
            cost: "0.0500",
          },
          {
            countryCode: "SG",
            count: 1,
            served: true,
            reason: null,
            unitPrice: "0.0600",
            fallbackPrice: null,
            cost: "0.0600",
          },
        ],
        segments: 1,
        encoding: "gsm7",
        totalCost: "0.1100",
        balance: "1000.0000",
        sufficient: true,
        authenticationAllowed: true,
        authenticationReason: null,
        reviewRequired: false,
      }),
    );
    await screen.findByTestId("task-summary");
    await userEvent.click(screen.getByTestId("task-confirm"));

    const sub = lastXhr();
    expect(sub).not.toBe(pre);
    expect(new URL(sub.url).pathname).toBe("/batch/submit/file");
    expect((sub.body as FormData).get("file")).toBeInstanceOf(File);
    sub.progress(1_000, 1_000);
    sub.respond(200, envelope({ batch: { id: "77" } }));
    await waitFor(() => expect(onSubmitted).toHaveBeenCalledWith("77"));
  });
});
