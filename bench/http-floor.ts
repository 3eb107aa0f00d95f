// The floor of an HTTP exchange on this machine (not a test; results go in docs/benchmarks.md):
//   npm run bench:http-floor                     20,000 exchanges, 64 in flight
//   npm run bench:http-floor -- --n 50000 --in-flight 128
//
// A node:http server in a child process answers every POST at once with a small JSON body (what the RBM
// simulator's agentMessages does, minus its bookkeeping); this process sends the RCS adapter's kind of request
// through an undici keep-alive pool, as packages/channels/src/http/call.ts does. Prints exchanges/s and the CPU
// (user + system, from /proc) that each side spent per exchange. An RCS message costs at least two such exchanges
// (the send and its DELIVERED push), an SMS costs a fraction of one SMPP write: this is what bounds bench:rcs on
// a machine whose cores also run the simulators.
import { fork } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { Pool } from "undici";
import { arg, cpuMeter, fmt, log } from "./lib/platform";

if (process.argv[2] === "--serve") {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"name":"phones/+12125550100/agentMessages/bench"}');
    });
  });
  server.listen(0, "127.0.0.1", () => process.send?.((server.address() as { port: number }).port));
} else {
  const N = arg("n", 20_000);
  const IN_FLIGHT = arg("in-flight", 64);
  const server = fork(import.meta.filename, ["--serve"], { execArgv: ["--import", "tsx"] });
  const [port] = (await once(server, "message")) as [number];
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: IN_FLIGHT, pipelining: 1 });
  const body = JSON.stringify({ contentMessage: { text: "Benchmark RCS message" } });
  const exchange = async (i: number) => {
    const res = await pool.request({
      path: `/v1/phones/+1212${String(2_000_000 + i)}/agentMessages?messageId=b-${i}&agentId=bench`,
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench-token" },
      body,
    });
    await res.body.text();
  };
  for (let i = 0; i < 2_000; i++) await exchange(i); // warm-up: connections open, code optimised
  const meter = cpuMeter({ client: () => [process.pid], server: () => [server.pid as number] });
  meter.start();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < N) await exchange(next++);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = meter.stop();
  log(
    `${fmt(N)} HTTP/1.1 exchanges, ${IN_FLIGHT} in flight: ${fmt(N / seconds)}/s; CPU per exchange: ` +
      `client ${fmt(((cpu.client ?? 0) * 1e6) / N)} us, server ${fmt(((cpu.server ?? 0) * 1e6) / N)} us`,
  );
  await pool.close();
  server.kill();
}
