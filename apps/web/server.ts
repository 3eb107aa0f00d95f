// Serves the built web client (dist/) for `npm start`, the e2e harness and production (dist/web/server.js in the
// image): Fastify with @fastify/static and @fastify/compress.
// - Hashed files (/assets/*, named by their content by vite) are cached for a year, immutable; everything else
//   (index.html, favicons) is revalidated on every use (no-cache), so a new deployment is seen at once.
// - Text is sent compressed (brotli, else gzip): files the production build stored as .br / .gz are sent as they
//   are (best ratio, no CPU per request); anything else (index.html, a build without them) is compressed here.
// - index.html answers every client-side route (the SPA fallback), with the run-time config (API base address,
//   variant) injected, so one build serves any deployment; a missing file with an extension is a 404.
import { existsSync, readFileSync } from "node:fs";
import type http from "node:http";
import path from "node:path";
import fastifyCompress from "@fastify/compress";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyReply } from "fastify";

export interface WebServerOptions {
  distDir: string;
  host: string;
  port: number;
  /** Exposed to the client as window.__SWITCHBOARD_CONFIG__. */
  runtimeConfig: { apiBase: string; variant?: "full" | "rcs"; international?: boolean; agreeShow?: boolean };
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";
/** Smaller answers are not worth compressing (headers and a round trip cost more). */
const COMPRESS_THRESHOLD_BYTES = 512;

export async function startWebServer(opts: WebServerOptions): Promise<http.Server> {
  const root = path.resolve(opts.distDir);
  const indexPath = path.join(root, "index.html");
  if (!existsSync(indexPath)) throw new Error(`no web build at ${root}: run npm run -w @switchboard/web build`);
  // "<" is escaped so the JSON cannot close the script element.
  const config = JSON.stringify(opts.runtimeConfig).replaceAll("<", "\\u003c");
  const index = readFileSync(indexPath, "utf8").replace(
    "</head>",
    `<script>window.__SWITCHBOARD_CONFIG__=${config}</script></head>`,
  );
  const assetsDir = path.join(root, "assets") + path.sep;

  const app = Fastify({ logger: false, return503OnClosing: false });
  app.addHook("onSend", async (_req, reply) => {
    reply.header("x-content-type-options", "nosniff");
  });
  // Registered before the static files, as @fastify/compress requires, so its hook sees every answer.
  await app.register(fastifyCompress, { encodings: ["br", "gzip"], threshold: COMPRESS_THRESHOLD_BYTES });
  await app.register(fastifyStatic, {
    root,
    index: false,
    preCompressed: true,
    dotfiles: "ignore",
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header("cache-control", file.startsWith(assetsDir) ? IMMUTABLE : REVALIDATE);
      // The type every browser knows for favicon.ico (mime-db's image/vnd.microsoft.icon is the IANA name).
      if (file.endsWith(".ico")) reply.header("content-type", "image/x-icon");
    },
    // index.html is only ever sent as the copy with the config injected (a path reaching it otherwise: not found).
    allowedPath: (pathname) => path.basename(pathname) !== "index.html",
  });

  const sendIndex = (reply: FastifyReply) =>
    reply.code(200).type("text/html; charset=utf-8").header("cache-control", REVALIDATE).send(index);
  app.get("/", (_req, reply) => sendIndex(reply));
  app.get("/index.html", (_req, reply) => sendIndex(reply));
  app.setNotFoundHandler((req, reply) => {
    const pathname = new URL(req.url, "http://local").pathname;
    if ((req.method === "GET" || req.method === "HEAD") && !path.extname(pathname)) return sendIndex(reply);
    return reply.code(404).type("text/plain; charset=utf-8").header("cache-control", REVALIDATE).send("not found");
  });

  await app.listen({ host: opts.host, port: opts.port });
  return app.server;
}

// node dist/web/server.js (production) or node --import tsx apps/web/server.ts (npm start):
// WEB_PORT, WEB_HOST, API_BASE (the API's address as the browser sees it), WEB_VARIANT (full | rcs),
// WEB_INTERNATIONAL (1: international mode).
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
      ...(process.env.WEB_INTERNATIONAL ? { international: process.env.WEB_INTERNATIONAL === "1" } : {}),
    },
  });
  process.stdout.write(`web client on http://${host}:${port}\n`);
  for (const s of ["SIGINT", "SIGTERM"] as const) process.once(s, () => server.close(() => process.exit(0)));
}
