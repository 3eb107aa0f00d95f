import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { matchRoutes } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { buildRoutes } from "../src/routes/build-routes";
import { firstChildPath, flattenTree, pageRoutes, parentPaths } from "../src/routes/flatten";
import { ParentRedirect } from "../src/routes/redirects";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const products = ["rcs", "ws", "sms"];
const rcsTypes = ["processing", "sending", "finish"];

/** Every route of spec section 2, with example values for the parameters. */
const SPEC_ROUTES = [
  "/login",
  "/register",
  "/control/login",
  "/control/register",
  "/system/login",
  "/backend/login",
  "/app/dashboard",
  "/app/dashboard/remit",
  ...products.map((p) => `/app/${p}/message/task`),
  "/app/finance/recharge/add",
  "/app/finance/recharge/deduct",
  "/app/finance/consume/customer",
  "/app/notice",
  "/backend/dashboard",
  "/backend/customer/list",
  "/backend/customer/recharge/add",
  "/backend/customer/recharge/deduct",
  "/backend/customer/consume",
  "/backend/customer/remit",
  "/backend/customer/authentication",
  "/backend/customer/log",
  ...products.flatMap((p) => [
    `/backend/${p}/message/task`,
    `/backend/${p}/message/1`,
    `/backend/${p}/message/20`,
    `/backend/${p}/message/21`,
    `/backend/${p}/message/22`,
    `/backend/${p}/message/detail/B20261121001`,
  ]),
  "/backend/finance/recharge",
  "/backend/finance/deduct",
  "/backend/finance/consume",
  "/backend/product/api",
  "/backend/product/list",
  "/backend/product/statistics",
  "/backend/product/finance/api",
  "/backend/product/finance/remit",
  "/backend/setting/account",
  "/backend/setting/sms/template",
  "/backend/setting/sms/record",
  "/backend/setting/system",
  "/user/home",
  ...rcsTypes.flatMap((t) => [`/user/message/${t}`, `/user/message/${t}/detail/B1`, `/user/message/${t}/create`]),
  "/user/balance/recharge",
  "/user/balance/consume",
  "/user/developer/info",
  "/user/developer/ip",
  "/user/developer/notify",
];

function matchedPage(routes: ReturnType<typeof buildRoutes>, path: string) {
  const matches = matchRoutes(routes, path) ?? [];
  const last = matches.at(-1)?.route;
  return last?.handle ? (last.handle as { route: { fullPath: string } }).route.fullPath : null;
}

describe("route tree", () => {
  const full = buildRoutes(routeTree, "full");

  it.each(SPEC_ROUTES)("has a page at %s", (path) => {
    expect(matchedPage(full, path)).not.toBeNull();
  });

  it("has unique keys and paths", () => {
    const flat = flattenTree(routeTree);
    expect(new Set(flat.map((r) => r.node.key)).size).toBe(flat.length);
    expect(new Set(flat.map((r) => r.fullPath)).size).toBe(flat.length);
  });

  it("has a page or children on every node", () => {
    for (const { node, fullPath } of flattenTree(routeTree)) {
      expect(Boolean(node.page) || Boolean(node.children?.length), fullPath).toBe(true);
    }
  });

  it("answers unknown paths with the 404 route", () => {
    expect(matchedPage(full, "/nowhere")).toBeNull();
    expect(matchRoutes(full, "/nowhere")?.at(-1)?.route.path).toBe("*");
    expect(matchRoutes(full, "/backend/nowhere")?.at(-1)?.route.path).toBe("*");
  });

  it("drops the WS and SMS routes in the RCS variant", () => {
    const rcs = buildRoutes(routeTree, "rcs");
    expect(matchedPage(rcs, "/app/ws/message/task")).toBeNull();
    expect(matchedPage(rcs, "/backend/sms/message/20")).toBeNull();
    expect(matchedPage(rcs, "/backend/rcs/message/20")).toBe("/backend/rcs/message/20");
    expect(matchedPage(rcs, "/backend/login")).toBe("/backend/login");
  });
});

describe("parents redirect to their first child", () => {
  const pages = pageRoutes(routeTree, "full");
  const { ADMIN, AGENT, USER } = UserType;

  const expected: [parent: string, userType: UserType | null, target: string | null][] = [
    ["/app", USER, "/app/dashboard"],
    ["/app/rcs", USER, "/app/rcs/message/task"],
    ["/app/rcs/message", USER, "/app/rcs/message/task"],
    ["/app/finance", USER, "/app/finance/recharge/add"],
    ["/app/finance/recharge", USER, "/app/finance/recharge/add"],
    ["/app/finance/consume", USER, "/app/finance/consume/customer"],
    ["/backend", ADMIN, "/backend/dashboard"],
    ["/backend/customer", AGENT, "/backend/customer/list"],
    ["/backend/customer/recharge", ADMIN, "/backend/customer/recharge/add"],
    ["/backend/sms", ADMIN, "/backend/sms/message/task"],
    ["/backend/sms/message", ADMIN, "/backend/sms/message/task"],
    ["/backend/finance", AGENT, "/backend/finance/recharge"],
    ["/backend/finance", ADMIN, null],
    ["/backend/product", ADMIN, "/backend/product/api"],
    ["/backend/product/finance", ADMIN, "/backend/product/finance/api"],
    ["/backend/setting", ADMIN, "/backend/setting/account"],
    ["/backend/setting/sms", ADMIN, "/backend/setting/sms/template"],
    ["/user", USER, "/user/home"],
    ["/user/message", USER, "/user/message/processing"],
    ["/user/balance", USER, "/user/balance/recharge"],
    ["/user/developer", USER, "/user/developer/info"],
    ["/control", null, "/control/login"],
    ["/system", null, "/system/login"],
  ];

  it.each(expected)("%s (user type %s) -> %s", (parent, userType, target) => {
    expect(firstChildPath(parent, pages, userType, "full")).toBe(target);
  });

  it("registers a redirect for every parent path", () => {
    const routes = buildRoutes(routeTree, "full");
    const parents = parentPaths(pages);
    expect(parents).toEqual(expect.arrayContaining(expected.map(([parent]) => parent)));
    for (const parent of parents) {
      expect(matchRoutes(routes, parent)?.at(-1)?.route.element, parent).toMatchObject({ type: ParentRedirect });
    }
  });

  it("redirects to the first child allowed in the RCS variant", () => {
    const rcsPages = pageRoutes(routeTree, "rcs");
    expect(firstChildPath("/backend/sms", rcsPages, ADMIN, "rcs")).toBeNull();
    expect(firstChildPath("/app", rcsPages, USER, "rcs")).toBe("/app/dashboard");
  });
});

describe("router in the browser", () => {
  // The first render of a lazily loaded layout transforms antd modules: allow for it.
  const slow = { timeout: 10_000 };
  const userInfo = (type: UserType) =>
    envelope({
      id: 1,
      user: "alice",
      type,
      tenantId: 7,
      agentId: null,
      balance: "1234.5000",
      authStatus: 2,
      nickname: null,
    });

  it("sends a visitor without a token from an area to its login", async () => {
    mockFetch({ "/website/config": { body: envelope(null) } });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/app/finance");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"), slow);
    expect(await screen.findByTestId("login-username", undefined, slow)).toBeInTheDocument();
  });

  it("redirects /control to the RCS portal login page", async () => {
    mockFetch({ "/website/config": { body: envelope(null) } });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/control");
    await waitFor(() => expect(router.state.location.pathname).toBe("/control/login"), slow);
    expect(await screen.findByRole("heading", { name: "RCS用户登录" }, slow)).toBeInTheDocument();
  });

  it("checks the token with /user/info, then shows the area menu and the page", async () => {
    storage.saveSession("tok", { userType: UserType.AGENT, tenantId: "7" });
    mockFetch({ "/website/config": { body: envelope(null) }, "/user/info": { body: userInfo(UserType.AGENT) } });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/backend");
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/dashboard"), slow);
    const menu = await screen.findByTestId("menu", undefined, slow);
    expect(menu).toHaveTextContent("财务");
    expect(menu).not.toHaveTextContent("系统设置");
    await waitFor(() => expect(document.getElementById("page-title")).toHaveTextContent("首页"), slow);
    expect(screen.getByTestId("logout")).toBeInTheDocument();
    expect(screen.getByTestId("language-switch")).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe("首页 - 管理平台"), slow);
  });

  it("answers 403 for a page the user type may not see", async () => {
    storage.saveSession("tok", { userType: UserType.AGENT, tenantId: "7" });
    mockFetch({ "/website/config": { body: envelope(null) }, "/user/info": { body: userInfo(UserType.AGENT) } });
    renderRoutes(buildRoutes(routeTree, "full"), "/backend/setting/system");
    expect(await screen.findByText("抱歉，您无权访问此页面", undefined, slow)).toBeInTheDocument();
  });

  it("answers 403 for an area of another kind of user", async () => {
    storage.saveSession("tok", { userType: UserType.USER, tenantId: "7" });
    mockFetch({ "/website/config": { body: envelope(null) }, "/user/info": { body: userInfo(UserType.USER) } });
    renderRoutes(buildRoutes(routeTree, "full"), "/backend/dashboard");
    expect(await screen.findByText("抱歉，您无权访问此页面", undefined, slow)).toBeInTheDocument();
  });

  it("sends the user to login when /user/info answers 401", async () => {
    storage.saveSession("tok", { userType: UserType.USER, tenantId: "7" });
    mockFetch({
      "/website/config": { body: envelope(null) },
      "/user/info": { status: 401, body: envelope(null, 401, "token expired") },
    });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/user/home");
    await waitFor(() => expect(router.state.location.pathname).toBe("/control/login"), slow);
    expect(storage.getToken()).toBeNull();
  });

  it("logs out locally even when the logout request fails, and goes to the customer login", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    storage.saveSession("tok", { userType: UserType.USER, tenantId: "7", agentId: "3" });
    storage.setLang("en");
    const { requests } = mockFetch({
      "/website/config": { body: envelope(null) },
      "/user/info": { body: userInfo(UserType.USER) },
      "POST /auth/logout": new TypeError("Failed to fetch"),
    });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/app/dashboard");
    const menu = await screen.findByTestId("menu", undefined, slow);
    expect(menu).toHaveTextContent("RCS send");
    expect(menu).toHaveTextContent("Notice");

    await userEvent.click(screen.getByTestId("logout"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"), slow);
    expect(requests.some((r) => r.method === "POST" && r.url.pathname === "/auth/logout")).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("logout request failed"), expect.anything());
    expect(storage.getToken()).toBeNull();
    expect(storage.getTenantId()).toBeNull();
    expect(storage.getAgentId()).toBeNull();
    expect(storage.getLang()).toBe("en");
  });

  it("navigates from the menu", async () => {
    storage.saveSession("tok", { userType: UserType.ADMIN, tenantId: "7" });
    mockFetch({ "/website/config": { body: envelope(null) }, "/user/info": { body: userInfo(UserType.ADMIN) } });
    const { router } = renderRoutes(buildRoutes(routeTree, "full"), "/backend/dashboard");
    const menu = await screen.findByTestId("menu", undefined, slow);
    await userEvent.click(await screen.findByText("系统设置", undefined, slow));
    await userEvent.click(await screen.findByRole("link", { name: "短信模板" }, slow));
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/setting/sms/template"), slow);
    expect(await screen.findByRole("heading", { name: "短信模板" }, slow)).toBeInTheDocument();
    expect(menu).not.toHaveTextContent("财务");
  });
});
