import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer } from "../server";

const webDir = path.resolve(import.meta.dirname, "..");
let dist: string;
let server: Server;
let base: string;

// A dist/ as `vite build` lays it out: index.html beside everything in public/.
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
  cpSync(path.join(webDir, "public"), dist, { recursive: true });
  cpSync(path.join(webDir, "index.html"), path.join(dist, "index.html"));
  server = await startWebServer({ distDir: dist, host: "127.0.0.1", port: 0, runtimeConfig: { apiBase: "http://x" } });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** GET with node's own client (the web tests' global fetch is happy-dom's). */
function fetch(url: string): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], body: Buffer.concat(chunks) }),
      );
    }).on("error", reject);
  });
}

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dist, { recursive: true, force: true });
});

describe("the web server's icon", () => {
  it("answers /favicon.ico with an icon, not 404", async () => {
    const res = await fetch(`${base}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.type).toBe("image/x-icon");
    expect([...res.body.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // ICO header: reserved 0, type 1 (icon)
  });

  it("every page links the SVG icon, which is served as SVG", async () => {
    const html = (await fetch(`${base}/app/sms/message/task`)).body.toString("utf8");
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(href).toBe("/favicon.svg");
    const res = await fetch(`${base}${href}`);
    expect(res.status).toBe(200);
    expect(res.type).toBe("image/svg+xml");
    expect(res.body.toString("utf8")).toBe(readFileSync(path.join(webDir, "public", "favicon.svg"), "utf8"));
  });

  it("still answers a missing file with 404", async () => {
    expect((await fetch(`${base}/nothing-here.png`)).status).toBe(404);
  });
});
