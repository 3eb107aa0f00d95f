// The notice menu entry follows the TENANT's mode (TenantSetting.international, from GET /website/config), not
// the build-time switch; the same mode drives the international flag of every request.
import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { buildMenu, canSeeRoute, type MenuEntry } from "../src/access";
import { getWebsiteConfig } from "../src/features/website/api/get-website-config";
import { api } from "../src/lib/api";
import {
  getTenantInternational,
  internationalFlag,
  isDomesticMode,
  setTenantInternational,
  useDomesticMode,
} from "../src/lib/international";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch } from "./helpers";

const { ADMIN, AGENT, USER, SUPER_ADMIN } = UserType;
const flat = flattenTree(routeTree);
const node = (path: string) => {
  const found = flat.find((r) => r.fullPath === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};
const keys = (entries: MenuEntry[]): string[] => entries.flatMap((e) => [e.key, ...keys(e.children ?? [])]);

afterEach(() => setTenantInternational(null));

describe("the tenant's mode", () => {
  it("decides the flag and the mode over the build-time switch and the stored flag", () => {
    const international = { internationalMode: true };
    const domesticBuild = { internationalMode: false };
    const stored = (v: "1" | "0" | null) => ({ getInternational: () => v });
    expect(internationalFlag(domesticBuild, stored("1"), false)).toBe("0");
    expect(internationalFlag(domesticBuild, stored(null), true)).toBe("1");
    expect(internationalFlag(international, stored("1"), false)).toBe("0");
    expect(isDomesticMode(international, stored("1"), false)).toBe(true);
    expect(isDomesticMode(domesticBuild, stored(null), true)).toBe(false);
    // Unknown tenant: the build-time switch as before.
    expect(internationalFlag(domesticBuild, stored("1"), null)).toBeNull();
    expect(isDomesticMode(domesticBuild, stored("1"), null)).toBe(true);
    expect(internationalFlag(international, stored(null), null)).toBe("1");
    expect(internationalFlag(international, stored("0"), null)).toBe("0");
  });

  it("arrives with GET /website/config, is stored, and goes out with the next requests", async () => {
    const { requests } = mockFetch({
      "/website/config": { body: envelope({ title: "Acme", tenantId: 3, agentId: null, international: false }) },
      "/notice/list": { body: envelope({ list: [], total: 0 }) },
    });
    await getWebsiteConfig();
    expect(getTenantInternational()).toBe(false);
    expect(storage.getInternational()).toBe("0");
    await api.get("/notice/list");
    expect(requests.at(-1)?.url.searchParams.get("international")).toBe("0");
  });

  it("leaves the build-time switch in charge when the server knows no tenant", async () => {
    mockFetch({ "/website/config": { body: envelope({ title: "RCS message platform", tenantId: null }) } });
    setTenantInternational(true);
    await getWebsiteConfig();
    expect(getTenantInternational()).toBeNull();
  });

  it("re-renders what reads it when the mode arrives or changes", () => {
    function Probe() {
      return <span data-testid="mode">{useDomesticMode() ? "domestic" : "international"}</span>;
    }
    setTenantInternational(true);
    render(<Probe />);
    expect(screen.getByTestId("mode")).toHaveTextContent("international");
    act(() => setTenantInternational(false));
    expect(screen.getByTestId("mode")).toHaveTextContent("domestic");
    act(() => setTenantInternational(true));
    expect(screen.getByTestId("mode")).toHaveTextContent("international");
  });
});

describe("routes of developer settings and notices", () => {
  const app = node("/app").node;
  const backend = node("/backend").node;

  it("puts /app/developer in the menu in either mode, open to customers only", () => {
    for (const domestic of [true, false]) {
      expect(keys(buildMenu(app, { userType: USER, variant: "full", domestic }))).toContain("app.developer");
    }
    const chain = node("/app/developer").chain;
    expect(canSeeRoute(USER, chain, "full")).toBe(true);
    for (const type of [ADMIN, AGENT, SUPER_ADMIN, null]) expect(canSeeRoute(type, chain, "full")).toBe(false);
  });

  it("shows notice management to admins (and super admins) only, whatever the mode", () => {
    for (const domestic of [true, false]) {
      expect(keys(buildMenu(backend, { userType: ADMIN, variant: "full", domestic }))).toContain(
        "backend.setting.notice",
      );
      expect(keys(buildMenu(backend, { userType: SUPER_ADMIN, variant: "rcs", domestic }))).toContain(
        "backend.setting.notice",
      );
      expect(keys(buildMenu(backend, { userType: AGENT, variant: "full", domestic }))).not.toContain(
        "backend.setting.notice",
      );
    }
    expect(canSeeRoute(AGENT, node("/backend/setting/notice").chain, "full")).toBe(false);
  });

  it("has real pages for the RCS portal's developer routes", () => {
    for (const path of ["/user/developer/info", "/user/developer/ip", "/user/developer/notify"]) {
      expect(String(node(path).node.page)).toContain("features/developer/pages/");
    }
  });
});
