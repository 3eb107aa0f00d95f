// Every page of the route tree, opened in Chromium as the role that uses it: the customer app and the RCS portal
// on a 390 px phone and at 1280 px, the back office at 1280 px as an admin and as an agent. Each page must render
// (its title shows), must not be wider than the screen, and must not log an error to the console (a crash, a
// failed chunk, a refused call shown as a red error). The page list comes from the route tree itself, so a page
// added later is walked without touching this file.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** What this test reads of a route node (src/routes/types.ts). */
interface Node {
  path: string;
  page?: unknown;
  public?: boolean;
  area?: string;
  roles?: readonly number[];
  hiddenInRcs?: boolean;
  children?: readonly Node[];
}
interface Flat {
  fullPath: string;
  chain: readonly Node[];
}

/**
 * The route tree and the access rules, loaded at run time: the e2e project compiles without the DOM and JSX
 * settings that the tree's page modules need, so it must not follow their imports when it typechecks.
 */
async function routesOf() {
  const treeModule = "../src/routes/tree";
  const flattenModule = "../src/routes/flatten";
  const accessModule = "../src/access";
  const { routeTree } = (await import(/* @vite-ignore */ treeModule)) as { routeTree: readonly Node[] };
  const { flattenTree } = (await import(/* @vite-ignore */ flattenModule)) as {
    flattenTree: (tree: readonly Node[]) => Flat[];
  };
  const { canSeeRoute } = (await import(/* @vite-ignore */ accessModule)) as {
    canSeeRoute: (type: number, chain: readonly Node[], variant: "full" | "rcs") => boolean;
  };
  const all = flattenTree(routeTree).filter(
    (r) => r.chain.at(-1)?.page && !r.chain.some((n) => n.public) && !/[:*]/.test(r.fullPath),
  );
  /** The static pages of one area that a user type may open (full variant). */
  return (area: string, userType: number) =>
    all
      .filter((r) => r.chain.some((n) => n.area === area) && canSeeRoute(userType, r.chain, "full"))
      .map((r) => r.fullPath);
}

let pagesOf: Awaited<ReturnType<typeof routesOf>>;
beforeAll(async () => {
  pagesOf = await routesOf();
});

// UserType of the contracts (ADMIN 1, AGENT 2, USER 3).
const ADMIN = 1;
const AGENT = 2;
const USER = 3;

async function signIn(page: Page, loginPath: string, username: string, password: string, landing: RegExp) {
  await page.goto(loginPath);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(landing);
}

interface Finding {
  path: string;
  problem: string;
}

/** Opens each path in turn and names what is wrong with it; an empty list is a pass. */
async function walk(page: Page, paths: readonly string[], width: number): Promise<Finding[]> {
  const findings: Finding[] = [];
  let current = "";
  page.on("console", (msg) => {
    // A failed call's own console line is reported below with its URL (serverErrors), not here.
    if (msg.type() === "error" && !/status of 5\d\d/.test(msg.text()))
      findings.push({ path: current, problem: `console error: ${msg.text()}` });
  });
  // A server error names its call (it found a list failing on one unreadable row; the e2e API logs the stack).
  page.on("response", async (res) => {
    if (res.status() < 500) return;
    const body = await res.text().catch(() => "");
    findings.push({ path: current, problem: `${res.status()} from ${res.url()}: ${body.slice(0, 300)}` });
  });
  page.on("pageerror", (err) => findings.push({ path: current, problem: `page error: ${err.message}` }));
  for (const path of paths) {
    current = path;
    await page.goto(path);
    const title = page.locator("#page-title");
    try {
      await title.first().waitFor({ timeout: 20_000 });
    } catch {
      findings.push({ path, problem: "no page title rendered" });
      continue;
    }
    // Let the page's first queries answer before measuring (lists grow wider once their rows arrive).
    await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
    const scrollWidth = await page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
          .scrollWidth,
    );
    if (scrollWidth > width + 1) findings.push({ path, problem: `page ${scrollWidth} px wide at ${width} px` });
    const text = await page.locator("body").innerText();
    if (/being built|正在建设|建设中/i.test(text)) findings.push({ path, problem: "placeholder text" });
  }
  return findings;
}

describe("every page in Chromium", () => {
  it("the customer app at 1280 px and on a 390 px phone", async () => {
    const paths = pagesOf("app", USER);
    expect(paths.length).toBeGreaterThan(10);
    for (const width of [1280, 390]) {
      const page = await h.newPage();
      await page.setViewportSize({ width, height: 844 });
      await signIn(page, "/login", "customer", "Customer123", /\/app\/dashboard$/);
      expect(await walk(page, paths, width)).toEqual([]);
      await page.context().close();
    }
  });

  it("the RCS portal at 1280 px and on a 390 px phone", async () => {
    const paths = pagesOf("rcs", USER);
    expect(paths.length).toBeGreaterThan(8);
    for (const width of [1280, 390]) {
      const page = await h.newPage();
      await page.setViewportSize({ width, height: 844 });
      await signIn(page, "/control/login", "customer", "Customer123", /\/user\/home/);
      expect(await walk(page, paths, width)).toEqual([]);
      await page.context().close();
    }
  });

  it("the back office at 1280 px as an admin and as an agent", async () => {
    for (const [username, password, type] of [
      ["admin", "Admin12345", ADMIN],
      ["agent", "Agent12345", AGENT],
    ] as const) {
      const paths = pagesOf("backend", type);
      expect(paths.length).toBeGreaterThan(15);
      const page = await h.newPage();
      await signIn(page, "/system/login", username, password, /\/backend\/dashboard/);
      expect(await walk(page, paths, 1280)).toEqual([]);
      await page.context().close();
    }
  });
});
