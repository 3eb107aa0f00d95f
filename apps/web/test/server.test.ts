import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { get, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebServer } from "../server";

const webDir = path.resolve(import.meta.dirname, "..");
let dist: string;
let server: Server;
let base: string;

/** A hashed script as vite names them, large enough to be worth compressing. */
const SCRIPT = `export const words = ${JSON.stringify("switchboard ".repeat(2000))};\n`;
/** What the production build stored beside it (scripts/build.ts): another text, to tell which one was sent. */
const STORED_BR = "// the stored brotli file\n";

// A dist/ as `vite build` lays it out: index.html beside everything in public/, hashed files under assets/; one of
// them with a .br the production build would have written.
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), "web-dist-"));
  cpSync(path.join(webDir, "public"), dist, { recursive: true });
  cpSync(path.join(webDir, "index.html"), path.join(dist, "index.html"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "assets", "index-Ab12Cd34.js"), SCRIPT);
  writeFileSync(path.join(dist, "assets", "stored-Ef56Gh78.js"), SCRIPT);
  writeFileSync(path.join(dist, "assets", "stored-Ef56Gh78.js.br"), brotliCompressSync(STORED_BR));
  server = await startWebServer({ distDir: dist, host: "127.0.0.1", port: 0, runtimeConfig: { apiBase: "http://x" } });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** GET with node's own client (the web tests' global fetch is happy-dom's), bodies as sent (not decoded). */
function fetch(
  url: string,
  acceptEncoding = "identity",
): Promise<{ status: number; type: string | undefined; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers["content-type"],
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
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

describe("the web server in production", () => {
  it("answers every client-side route with index.html, the run-time config injected, revalidated on each use", async () => {
    for (const route of ["/", "/index.html", "/app/sms/message/task", "/system/login"]) {
      const res = await fetch(`${base}${route}`);
      expect(res.status).toBe(200);
      expect(res.type).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body.toString("utf8")).toContain(
        '<script>window.__SWITCHBOARD_CONFIG__={"apiBase":"http://x"}</script>',
      );
    }
  });

  it("caches hashed assets for a year, immutable; other files are revalidated", async () => {
    const asset = await fetch(`${base}/assets/index-Ab12Cd34.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.body.toString("utf8")).toBe(SCRIPT);
    expect((await fetch(`${base}/favicon.svg`)).headers["cache-control"]).toBe("no-cache");
    expect((await fetch(`${base}/assets/missing-00000000.js`)).status).toBe(404);
  });

  it("compresses with brotli or gzip as the browser accepts, index.html included", async () => {
    const br = await fetch(`${base}/assets/index-Ab12Cd34.js`, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(SCRIPT);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);

    const gz = await fetch(`${base}/assets/index-Ab12Cd34.js`, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString("utf8")).toBe(SCRIPT);

    const page = await fetch(`${base}/app/sms/message/task`, "br");
    expect(page.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(page.body).toString("utf8")).toContain("__SWITCHBOARD_CONFIG__");

    const plain = await fetch(`${base}/assets/index-Ab12Cd34.js`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });

  it("sends a file's stored .br as it is rather than compressing again", async () => {
    const res = await fetch(`${base}/assets/stored-Ef56Gh78.js`, "br, gzip");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.type).toMatch(/javascript/);
    expect(brotliDecompressSync(res.body).toString("utf8")).toBe(STORED_BR);
    // A browser without brotli gets the file itself, compressed here.
    expect(gunzipSync((await fetch(`${base}/assets/stored-Ef56Gh78.js`, "gzip")).body).toString("utf8")).toBe(SCRIPT);
  });
});
