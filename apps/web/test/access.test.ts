import { describe, expect, it } from "vitest";
import { buildMenu, canSeeRoute, isInVariant, type MenuEntry, menuSelection } from "../src/access";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { routeTree } from "../src/routes/tree";
import type { FlatRoute, RouteNode } from "../src/routes/types";

const flat = flattenTree(routeTree);

function route(path: string): FlatRoute {
  const found = flat.find((r) => r.fullPath === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
}

function area(path: string): RouteNode {
  return route(path).node;
}

const { ADMIN, AGENT, USER, SUPER_ADMIN } = UserType;
type Row = [path: string, admin: boolean, agent: boolean, customer: boolean, superAdmin: boolean, anonymous: boolean];

// biome-ignore format: a table reads better aligned
const table: Row[] = [
  //  path                                    admin  agent  cust   super  anon
  ["/login",                                  true,  true,  true,  true,  true],
  ["/control/register",                       true,  true,  true,  true,  true],
  ["/system/login",                           true,  true,  true,  true,  true],
  ["/app/dashboard",                          false, false, true,  false, false],
  ["/app/finance/recharge/add",               false, false, true,  false, false],
  ["/app/notice",                             false, false, true,  false, false],
  ["/user/home",                              false, false, true,  false, false],
  ["/user/message/sending/detail/:batchId",   false, false, true,  false, false],
  ["/user/developer/notify",                  false, false, true,  false, false],
  ["/backend/dashboard",                      true,  true,  false, true,  false],
  ["/backend/customer/list",                  true,  true,  false, true,  false],
  ["/backend/customer/authentication",        true,  true,  false, true,  false],
  ["/backend/customer/log",                   true,  false, false, true,  false],
  ["/app/sender-ids",                         false, false, true,  false, false],
  ["/backend/customer/sender-ids",            true,  true,  false, true,  false],
  ["/backend/rcs/message/1",                  true,  true,  false, true,  false],
  ["/backend/sms/message/detail/:batchId",    true,  true,  false, true,  false],
  ["/backend/finance/recharge",               false, true,  false, false, false],
  ["/backend/finance/deduct",                 false, true,  false, false, false],
  ["/backend/finance/consume",                false, true,  false, false, false],
  ["/backend/product/api",                    true,  false, false, true,  false],
  ["/backend/product/list",                   true,  false, false, true,  false],
  ["/backend/product/statistics",             true,  false, false, true,  false],
  ["/backend/product/finance/api",            true,  false, false, true,  false],
  ["/backend/product/finance/remit",          true,  false, false, true,  false],
  ["/backend/setting/account",                true,  false, false, true,  false],
  ["/backend/setting/sms/template",           true,  false, false, true,  false],
  ["/backend/setting/sms/record",             true,  false, false, true,  false],
  ["/backend/setting/system",                 true,  false, false, true,  false],
];

describe("canSeeRoute: roles x routes", () => {
  it.each(table)("%s", (path, admin, agent, customer, superAdmin, anonymous) => {
    const { chain } = route(path);
    expect({
      admin: canSeeRoute(ADMIN, chain, "full"),
      agent: canSeeRoute(AGENT, chain, "full"),
      customer: canSeeRoute(USER, chain, "full"),
      superAdmin: canSeeRoute(SUPER_ADMIN, chain, "full"),
      anonymous: canSeeRoute(null, chain, "full"),
    }).toEqual({ admin, agent, customer, superAdmin, anonymous });
  });

  it("is a pure function of its arguments (a made-up chain)", () => {
    const chain: RouteNode[] = [
      { path: "/x", key: "x", label: "route.app", roles: [ADMIN, AGENT] },
      { path: "y", key: "y", label: "route.app", roles: [AGENT] },
    ];
    expect(canSeeRoute(AGENT, chain, "full")).toBe(true);
    expect(canSeeRoute(ADMIN, chain, "full")).toBe(false);
    expect(canSeeRoute(SUPER_ADMIN, chain.slice(0, 1), "full")).toBe(true);
  });
});

describe("RCS variant", () => {
  const hidden = [
    "/app/ws/message/task",
    "/app/sms/message/task",
    "/backend/ws/message/20",
    "/backend/sms/message/task",
  ];
  const kept = [
    "/app/rcs/message/task",
    "/backend/rcs/message/22",
    "/backend/dashboard",
    "/user/home",
    "/backend/login",
  ];

  it.each(hidden)("hides %s", (path) => {
    const { chain } = route(path);
    expect(isInVariant(chain, "rcs")).toBe(false);
    expect(canSeeRoute(USER, chain, "rcs") || canSeeRoute(ADMIN, chain, "rcs")).toBe(false);
    expect(isInVariant(chain, "full")).toBe(true);
  });

  it.each(kept)("keeps %s", (path) => {
    expect(isInVariant(route(path).chain, "rcs")).toBe(true);
  });
});

function keys(entries: readonly MenuEntry[]): string[] {
  return entries.flatMap((e) => [e.key, ...keys(e.children ?? [])]);
}

describe("menus derived from the tree", () => {
  const backend = area("/backend");
  const app = area("/app");

  it("gives an agent the finance group and no admin groups", () => {
    const menu = keys(buildMenu(backend, { userType: AGENT, variant: "full", domestic: true }));
    expect(menu).toContain("backend.finance.recharge");
    expect(menu).toContain("backend.customer.list");
    expect(menu).not.toContain("backend.customer.log");
    expect(menu).not.toContain("backend.product");
    expect(menu).not.toContain("backend.setting");
  });

  it("gives an admin (and a super admin) the admin groups and no finance group", () => {
    for (const userType of [ADMIN, SUPER_ADMIN] as const) {
      const menu = keys(buildMenu(backend, { userType, variant: "full", domestic: true }));
      expect(menu).toEqual(
        expect.arrayContaining(["backend.customer.log", "backend.product.api", "backend.setting.system"]),
      );
      expect(menu).not.toContain("backend.finance");
    }
  });

  it("lists the four status filters under each product group, no detail pages", () => {
    const menu = buildMenu(backend, { userType: ADMIN, variant: "full", domestic: true });
    const sms = menu.find((e) => e.key === "backend.sms");
    expect(sms?.children?.map((e) => e.path)).toEqual([
      "/backend/sms/message/task",
      "/backend/sms/message/1",
      "/backend/sms/message/20",
      "/backend/sms/message/21",
      "/backend/sms/message/22",
    ]);
  });

  it("drops the WS and SMS groups in the RCS variant", () => {
    const menu = keys(buildMenu(backend, { userType: ADMIN, variant: "rcs", domestic: true }));
    expect(menu).toContain("backend.rcs");
    expect(menu).not.toContain("backend.ws");
    expect(menu).not.toContain("backend.sms");
    const appMenu = keys(buildMenu(app, { userType: USER, variant: "rcs", domestic: true }));
    expect(appMenu).toEqual(expect.arrayContaining(["app.rcs.task"]));
    expect(appMenu).not.toContain("app.ws.task");
  });

  it("shows the customer notice only in domestic mode", () => {
    expect(keys(buildMenu(app, { userType: USER, variant: "full", domestic: true }))).toContain("app.notice");
    expect(keys(buildMenu(app, { userType: USER, variant: "full", domestic: false }))).not.toContain("app.notice");
  });

  it("follows the spec's customer menu order", () => {
    const menu = buildMenu(app, { userType: USER, variant: "full", domestic: true });
    expect(menu.map((e) => e.key)).toEqual([
      "app.dashboard",
      "app.rcs.task",
      "app.ws.task",
      "app.sms.task",
      "app.search",
      "app.inbox",
      "app.finance",
      "app.notice",
      "app.developer",
      "app.senderIds",
      "app.optOuts",
    ]);
    expect(menu.find((e) => e.key === "app.finance")?.children?.map((e) => e.path)).toEqual([
      "/app/finance/recharge/add",
      "/app/finance/recharge/deduct",
      "/app/finance/consume/customer",
    ]);
  });

  it("puts the developer settings in the customer's menu, with its icon, in either mode", () => {
    for (const domestic of [true, false]) {
      const entry = buildMenu(app, { userType: USER, variant: "full", domestic }).find(
        (e) => e.key === "app.developer",
      );
      expect(entry?.path).toBe("/app/developer");
      expect(entry?.icon).toBe("developer");
    }
  });

  it("gives nobody but customers a customer menu", () => {
    expect(buildMenu(app, { userType: ADMIN, variant: "full", domestic: true })).toEqual([]);
  });

  it("highlights the owning entry for hidden pages", () => {
    expect(menuSelection(route("/backend/rcs/message/detail/:batchId"))).toEqual({
      selectedKey: "backend.rcs.task",
      openKeys: ["backend.rcs"],
    });
    expect(menuSelection(route("/app/dashboard/remit")).selectedKey).toBe("app.dashboard");
    expect(menuSelection(route("/backend/setting/sms/record"))).toEqual({
      selectedKey: "backend.setting.sms.record",
      openKeys: ["backend.setting"],
    });
  });
});
