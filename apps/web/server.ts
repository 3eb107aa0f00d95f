// Serves the built web client (dist/) for `npm start` and the docker image: static files from the site
// root, index.html for every client-side route, and the runtime config (API base address, variant)
// injected into index.html so one build serves any deployment.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";

const MIME: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export interface WebServerOptions {
  distDir: string;
  host: string;
  port: number;
  /** Exposed to the client as window.__SWITCHBOARD_CONFIG__. */
  runtimeConfig: { apiBase: string; variant?: "full" | "rcs"; international?: boolean };
}

export function startWebServer(opts: WebServerOptions): Promise<http.Server> {
  const root = path.resolve(opts.distDir);
  const indexPath = path.join(root, "index.html");
  if (!existsSync(indexPath)) throw new Error(`no web build at ${root}: run npm run -w @switchboard/web build`);
  // "<" is escaped so the JSON cannot close the script element.
  const config = JSON.stringify(opts.runtimeConfig).replaceAll("<", "\\u003c");
  const index = readFileSync(indexPath, "utf8").replace(
    "</head>",
    `<script>window.__SWITCHBOARD_CONFIG__=${config}</script></head>`,
  );

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://local");
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("bad request");
      return;
    }
    // path.join resolves "..": anything that lands outside dist/ is treated as a client-side route.
    const file = path.join(root, path.normalize(pathname));
    const inside = file.startsWith(root + path.sep);
    if (inside && existsSync(file) && statSync(file).isFile() && !file.endsWith("index.html")) {
      const hashed = url.pathname.startsWith("/assets/");
      res.writeHead(200, {
        "content-type": MIME[path.extname(file)] ?? "application/octet-stream",
        "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
        "x-content-type-options": "nosniff",
      });
      createReadStream(file).pipe(res);
      return;
    }
    if (path.extname(url.pathname) && url.pathname !== "/index.html") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": MIME[".html"],
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    });
    res.end(index);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}

// node --import tsx apps/web/server.ts: WEB_PORT, WEB_HOST, API_BASE, WEB_VARIANT
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.WEB_PORT ?? 5173);
  const host = process.env.WEB_HOST ?? "127.0.0.1";
  const server = await startWebServer({
    distDir: path.join(import.meta.dirname, "dist"),
    host,
    port,
    runtimeConfig: {
      apiBase: process.env.API_BASE ?? "http://127.0.0.1:3000",
      variant: process.env.WEB_VARIANT === "rcs" ? "rcs" : "full",
    },
  });
  process.stdout.write(`web client on http://${host}:${port}\n`);
  for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, () => server.close(() => process.exit(0)));
}
