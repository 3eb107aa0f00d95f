import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LoginResult } from "../src/features/auth/api/types";
import { startSession } from "../src/features/auth/session";
import { type ApiClientDeps, ApiError, createApiClient } from "../src/lib/api";
import type { Variant } from "../src/lib/config";
import { translate } from "../src/lib/i18n";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch } from "./helpers";

const BASE = "http://api.test";

function client(overrides: { path?: string; variant?: Variant; internationalMode?: boolean } = {}) {
  const navigate = vi.fn<(to: string) => void>();
  let path = overrides.path ?? "/app/dashboard";
  const deps: ApiClientDeps = {
    config: {
      apiBase: BASE,
      variant: overrides.variant ?? "full",
      internationalMode: overrides.internationalMode ?? false,
    },
    storage,
    fetch: () => globalThis.fetch,
    currentPath: () => path,
    navigate: (to) => {
      navigate(to);
      path = to;
    },
    translate: (key, params) => translate(key, params),
  };
  return { api: createApiClient(deps), navigate };
}

function login(userType: UserType, tenantId: string | null = "7") {
  storage.saveSession("tok-123", { userType, tenantId, agentId: "5" });
}

describe("api client: headers", () => {
  it("sends the bearer token, the tenant id and the language", async () => {
    login(UserType.USER);
    storage.setLang("en");
    const { requests } = mockFetch({ "/user/info": { body: envelope({ id: 1 }) } });
    await client().api.get("/user/info");
    const [req] = requests;
    expect(req?.url.toString()).toBe(`${BASE}/user/info`);
    expect(req?.headers.get("Authorization")).toBe("Bearer tok-123");
    expect(req?.headers.get("tenant-id")).toBe("7");
    expect(req?.headers.get("lang")).toBe("en");
  });

  it("defaults the language to zh and sends no token or tenant when logged out", async () => {
    const { requests } = mockFetch({ "/website/config": { body: envelope(null) } });
    await client({ path: "/login" }).api.get("/website/config");
    expect(requests[0]?.headers.get("lang")).toBe("zh");
    expect(requests[0]?.headers.has("Authorization")).toBe(false);
    expect(requests[0]?.headers.has("tenant-id")).toBe(false);
  });

  it.each(["/system/login", "/backend/login"])("sends no tenant id from the system login page %s", async (path) => {
    login(UserType.ADMIN);
    const { requests } = mockFetch({ "/auth/staff/login": { body: envelope({}) } });
    await client({ path }).api.post("/auth/staff/login", { username: "a", password: "b" });
    expect(requests[0]?.headers.has("tenant-id")).toBe(false);
  });

  it("sends no tenant id for a super admin", async () => {
    login(UserType.SUPER_ADMIN);
    const { requests } = mockFetch({ "/user/list": { body: envelope({ list: [], total: 0 }) } });
    await client({ path: "/backend/customer/list" }).api.get("/user/list");
    expect(requests[0]?.headers.has("tenant-id")).toBe(false);
    expect(requests[0]?.headers.get("Authorization")).toBe("Bearer tok-123");
  });

  it("sends the tenant id for admins and agents in the back office", async () => {
    const { requests } = mockFetch({ "/user/list": { body: envelope({ list: [], total: 0 }) } });
    login(UserType.ADMIN, "11");
    await client({ path: "/backend/customer/list" }).api.get("/user/list");
    login(UserType.AGENT, "12");
    await client({ path: "/backend/customer/list" }).api.get("/user/list");
    expect(requests.map((r) => r.headers.get("tenant-id"))).toEqual(["11", "12"]);
  });
});

describe("api client: a super admin's working tenant", () => {
  it("sends the chosen working tenant as the tenant id, never the stored own tenant", async () => {
    login(UserType.SUPER_ADMIN, "7");
    storage.setWorkingTenantId(3);
    const { requests } = mockFetch({
      "/user/list": { body: envelope({ list: [], total: 0 }) },
      "/setting/system": { body: envelope({}) },
    });
    const { api } = client({ path: "/backend/customer/list" });
    await api.get("/user/list");
    await api.post("/setting/system", { reviewMode: 0 });
    expect(requests.map((r) => r.headers.get("tenant-id"))).toEqual(["3", "3"]);
  });

  it("goes back to no tenant id (all tenants) when the choice is cleared", async () => {
    login(UserType.SUPER_ADMIN, null);
    storage.setWorkingTenantId(3);
    storage.setWorkingTenantId(null);
    const { requests } = mockFetch({ "/user/list": { body: envelope({ list: [], total: 0 }) } });
    await client({ path: "/backend/customer/list" }).api.get("/user/list");
    expect(requests[0]?.headers.has("tenant-id")).toBe(false);
  });

  it("is ignored for every other user type, who keep their own tenant", async () => {
    const { requests } = mockFetch({ "/user/list": { body: envelope({ list: [], total: 0 }) } });
    for (const [type, own] of [
      [UserType.ADMIN, "11"],
      [UserType.AGENT, "12"],
      [UserType.USER, "13"],
    ] as const) {
      login(type, own);
      storage.setWorkingTenantId(99);
      await client({ path: "/backend/customer/list" }).api.get("/user/list");
    }
    expect(requests.map((r) => r.headers.get("tenant-id"))).toEqual(["11", "12", "13"]);
  });

  it.each(["/system/login", "/backend/login"])("is not sent from the system login page %s", async (path) => {
    login(UserType.SUPER_ADMIN, null);
    storage.setWorkingTenantId(3);
    const { requests } = mockFetch({ "/auth/staff/login": { body: envelope({}) } });
    await client({ path }).api.post("/auth/staff/login", { username: "a", password: "b" });
    expect(requests[0]?.headers.has("tenant-id")).toBe(false);
  });

  it("is forgotten with the session (logout, 401) and by a new login", async () => {
    login(UserType.SUPER_ADMIN, null);
    storage.setWorkingTenantId(3);
    storage.clearSession();
    expect(storage.getWorkingTenantId()).toBeNull();

    storage.setWorkingTenantId(4);
    mockFetch({ "/user/info": { body: envelope(null, 401, "expired") } });
    await client({ path: "/backend/customer/list" })
      .api.get("/user/info")
      .catch(() => undefined);
    expect(storage.getWorkingTenantId()).toBeNull();
    expect(storage.getToken()).toBeNull();

    storage.setWorkingTenantId(5);
    startSession({ token: "tok-2", user: { type: UserType.SUPER_ADMIN, tenantId: null } } as LoginResult, "staff");
    expect(storage.getWorkingTenantId()).toBeNull();
    expect(storage.getToken()).toBe("tok-2");
  });

  it("keeps language and mode when the session is cleared", () => {
    storage.setLang("en");
    storage.setInternational(true);
    login(UserType.SUPER_ADMIN, null);
    storage.setWorkingTenantId(3);
    storage.clearSession();
    expect(storage.getLang()).toBe("en");
    expect(storage.getInternational()).toBe("1");
  });
});

describe("api client: international flag", () => {
  it("adds international=1 to GET params and to POST bodies in international mode", async () => {
    const { requests } = mockFetch({
      "/user/list": { body: envelope({ list: [], total: 0 }) },
      "/user/edit": { body: envelope(null) },
    });
    const { api } = client({ internationalMode: true });
    await api.get("/user/list", { params: { page: 2, pageSize: 20, keyword: undefined } });
    await api.post("/user/edit", { id: 3 });
    expect(requests[0]?.url.searchParams.get("international")).toBe("1");
    expect(requests[0]?.url.searchParams.get("page")).toBe("2");
    expect(requests[0]?.url.searchParams.has("keyword")).toBe(false);
    expect(requests[1]?.body).toEqual({ id: 3, international: 1 });
  });

  it("sends the stored choice 0", async () => {
    storage.setInternational(false);
    const { requests } = mockFetch({
      "/user/list": { body: envelope({ list: [], total: 0 }) },
      "/auth/logout": { body: envelope(null) },
    });
    const { api } = client({ internationalMode: true });
    await api.get("/user/list");
    await api.post("/auth/logout");
    expect(requests[0]?.url.searchParams.get("international")).toBe("0");
    expect(requests[1]?.body).toEqual({ international: 0 });
  });

  it("adds nothing in domestic deployments", async () => {
    storage.setInternational(true);
    const { requests } = mockFetch({
      "/user/list": { body: envelope({ list: [], total: 0 }) },
      "/user/edit": { body: envelope(null) },
    });
    const { api } = client({ internationalMode: false });
    await api.get("/user/list");
    await api.post("/user/edit", { id: 3 });
    expect(requests[0]?.url.searchParams.has("international")).toBe(false);
    expect(requests[1]?.body).toEqual({ id: 3 });
  });
});

describe("api client: envelope", () => {
  it("returns data on code 0", async () => {
    mockFetch({ "/user/info": { body: envelope({ id: 9, user: "alice" }) } });
    await expect(client().api.get("/user/info")).resolves.toEqual({ id: 9, user: "alice" });
  });

  it("throws the server's message on code 1, whatever the HTTP status", async () => {
    mockFetch({ "/user/create": { status: 409, body: envelope(null, 1, "用户名已存在") } });
    const error = await client()
      .api.post("/user/create", { username: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: "business", message: "用户名已存在", code: 1, status: 409 });
  });

  it("asks for business refusals as HTTP 200 (no failed request in the browser's console) and still throws them", async () => {
    const { requests } = mockFetch({ "/finance/recharge": { status: 200, body: envelope(null, 1, "余额不足") } });
    const error = await client()
      .api.post("/finance/recharge", { userId: 1, amount: "5" })
      .catch((e: unknown) => e);
    expect(requests[0]?.headers.get("x-refusal-status")).toBe("200");
    expect(error).toMatchObject({ kind: "business", message: "余额不足", code: 1, status: 200 });
  });

  it("reads 'load failed' when a list load returns nothing", async () => {
    mockFetch({ "/user/list": { body: envelope(null) } });
    await expect(client().api.getList("/user/list")).rejects.toMatchObject({ kind: "empty", message: "加载失败" });
  });

  it("returns list and total", async () => {
    mockFetch({ "/user/list": { body: envelope({ list: [{ id: 1 }], total: 41 }) } });
    await expect(client().api.getList("/user/list")).resolves.toEqual({ list: [{ id: 1 }], total: 41 });
  });

  it("reports an answer that is not the envelope with its HTTP status", async () => {
    mockFetch({ "/user/info": { status: 502, body: "<html>Bad Gateway</html>" } });
    storage.setLang("en");
    await expect(client().api.get("/user/info")).rejects.toMatchObject({
      kind: "bad-response",
      message: "server request failed (502)",
    });
  });
});

describe("api client: 401", () => {
  const cases: [string, UserType | null, string, Variant, string][] = [
    ["a customer", UserType.USER, "/app/finance/recharge/add", "full", "/login"],
    ["an RCS portal customer", UserType.USER, "/user/home", "full", "/control/login"],
    ["an admin", UserType.ADMIN, "/backend/dashboard", "full", "/system/login"],
    ["an agent", UserType.AGENT, "/backend/dashboard", "full", "/system/login"],
    ["a super admin", UserType.SUPER_ADMIN, "/backend/dashboard", "full", "/system/login"],
    ["an admin in the RCS variant", UserType.ADMIN, "/backend/dashboard", "rcs", "/backend/login"],
  ];

  it.each(cases)("clears the session of %s and goes to its login", async (_who, userType, path, variant, target) => {
    if (userType !== null) login(userType);
    storage.setLang("en");
    mockFetch({ "/user/info": { status: 401, body: envelope(null, 401, "token expired") } });
    const { api, navigate } = client({ path, variant });
    await expect(api.get("/user/info")).rejects.toMatchObject({ kind: "unauthorized", message: "token expired" });
    expect(storage.getToken()).toBeNull();
    expect(storage.getUserType()).toBeNull();
    expect(storage.getTenantId()).toBeNull();
    expect(storage.getAgentId()).toBeNull();
    expect(storage.getLang()).toBe("en");
    expect(navigate).toHaveBeenCalledExactlyOnceWith(target);
  });

  it("does not navigate when already on the login page (a wrong password answered 401)", async () => {
    mockFetch({ "/auth/login": { status: 401, body: envelope(null, 401, "wrong password") } });
    const { api, navigate } = client({ path: "/login" });
    await expect(api.post("/auth/login", {})).rejects.toMatchObject({ message: "wrong password" });
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe("api client: failures", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reports a failed fetch as 'server request failed (501)'", async () => {
    mockFetch({ "/user/info": new TypeError("Failed to fetch") });
    await expect(client().api.get("/user/info")).rejects.toMatchObject({
      kind: "network",
      message: "服务器请求失败（501）",
    });
    storage.setLang("en");
    await expect(client().api.get("/user/info")).rejects.toMatchObject({ message: "server request failed (501)" });
  });

  describe("timeout", () => {
    let signal: AbortSignal | undefined;
    beforeEach(() => {
      signal = undefined;
      vi.useFakeTimers();
      vi.stubGlobal(
        "fetch",
        vi.fn(
          (_url: string, init: RequestInit) =>
            new Promise((_resolve, reject) => {
              signal = init.signal ?? undefined;
              signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
            }),
        ),
      );
    });

    it("aborts the request after 60 s", async () => {
      const pending = client()
        .api.get("/user/list")
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(signal?.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(signal?.aborted).toBe(true);
      await expect(pending).resolves.toMatchObject({ kind: "timeout" });
    });

    it("passes a caller's cancellation on as an abort, not as an error message", async () => {
      const controller = new AbortController();
      const pending = client()
        .api.get("/user/list", { signal: controller.signal })
        .catch((e: unknown) => e);
      controller.abort();
      const error = await pending;
      expect(signal?.aborted).toBe(true);
      expect(error).not.toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ name: "AbortError" });
    });
  });
});
