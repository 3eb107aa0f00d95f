// The containers' healthchecks (docker-compose.yml), without curl or wget in the image:
//   node dist/healthcheck.js http://127.0.0.1:3000/readyz    healthy when it answers 2xx within 3 s
//   node dist/healthcheck.js --any http://127.0.0.1:8787/     healthy when it answers at all (a simulator's 404)
//   node dist/healthcheck.js tcp://127.0.0.1:2775             healthy when the port accepts a connection
import { connect } from "node:net";

const TIMEOUT_MS = 3_000;

function done(healthy: boolean, why: string): never {
  if (!healthy) process.stderr.write(`unhealthy: ${why}\n`);
  process.exit(healthy ? 0 : 1);
}

const args = process.argv.slice(2);
const any = args.includes("--any");
const target = args.find((a) => !a.startsWith("--"));
if (!target || !URL.canParse(target)) done(false, "usage: healthcheck.js [--any] <http://... | tcp://host:port>");
const url = new URL(target);

if (url.protocol === "tcp:") {
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.setTimeout(TIMEOUT_MS, () => done(false, `${target}: no connection within ${TIMEOUT_MS} ms`));
  socket.once("connect", () => {
    socket.destroy();
    done(true, "");
  });
  socket.once("error", (err) => done(false, `${target}: ${err.message}`));
} else {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    done(any || res.ok, `${target}: HTTP ${res.status}`);
  } catch (err) {
    done(false, `${target}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
