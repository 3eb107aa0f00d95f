// RCS Business Messaging simulator from the command line, e.g.
//   node --import tsx packages/channels/src/simulators/rbm-cli.ts --port 8787 \
//     --webhook-url http://127.0.0.1:3000/api/webhooks/rcs/1 --client-token c1ient --agent-id demo-agent \
//     --key-file .data/rbm-key.json --non-capable-share 0.2 --read-share 0.5 --rps 300
// The service-account key it accepts: read from --key-file when that file holds one (so a restart keeps the key a
// seeded channel stores), else generated and written there; without --key-file, printed once on start.
// Prints one line of counters per second while traffic flows; Ctrl-C / SIGTERM stop it cleanly.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { reportUntilStopped, runCli } from "./cli";
import { type RbmSimulatorOptions, type RbmSimulatorStats, startRbmSimulator } from "./rbm";

const usage = `Usage: rbm-cli [options]
  --host <addr>                listen address (default 127.0.0.1)
  --port <n>                   listen port (default 8787, 0 = random)
  --agent-id <id>              the agent id the API accepts (default switchboard-demo-agent)
  --client-token <s>           the webhook's clientToken, key of X-Goog-Signature (default sim-client-token)
  --webhook-url <url>          where signed events and user messages are pushed (default: none)
  --verify-on-start            perform the registration handshake against --webhook-url first
  --key-file <path>            the service-account key JSON: read if present, else generated and written
  --token-ttl-seconds <n>      lifetime of issued access tokens (default 3600)
  --rps <n>                    agent messages per second, 0 = unlimited (default 0)
  --non-capable-share <0..1>   share of numbers that are not RCS-capable (default 0)
  --offline-share <0..1>       share of numbers whose messages stay undelivered (default 0)
  --server-error-share <0..1>  share of sends answered 500 / 503 (default 0)
  --delivery-delay-ms <n>      delay before DELIVERED (default 50)
  --read-share <0..1>          share of delivered messages then read (default 0)
  --read-delay-ms <n>          delay from DELIVERED to READ (default 200)
  --reply-share <0..1>         share of delivered messages the user answers (default 0)
  --duplicate-share <0..1>     share of events pushed twice (default 0)
  --reorder-share <0..1>       share of reads pushed before their DELIVERED (default 0)
  --latency-ms <n>             delay before each API answer (default 0)
  --webhook-concurrency <n>    event pushes in flight at once, as Pub/Sub's push scales up (default 16)
Numbers ending 404 are not RCS-capable.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${usage}\n`);
  process.exit(2);
}

function number(name: string, value: string | undefined, min: number, max = Number.POSITIVE_INFINITY) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) fail(`--${name} must be a number between ${min} and ${max}`);
  return n;
}

function parse() {
  return parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "agent-id": { type: "string" },
      "client-token": { type: "string" },
      "webhook-url": { type: "string" },
      "verify-on-start": { type: "boolean" },
      "key-file": { type: "string" },
      "token-ttl-seconds": { type: "string" },
      rps: { type: "string" },
      "non-capable-share": { type: "string" },
      "offline-share": { type: "string" },
      "server-error-share": { type: "string" },
      "delivery-delay-ms": { type: "string" },
      "read-share": { type: "string" },
      "read-delay-ms": { type: "string" },
      "reply-share": { type: "string" },
      "duplicate-share": { type: "string" },
      "reorder-share": { type: "string" },
      "webhook-concurrency": { type: "string" },
      "latency-ms": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
}

function parseOptions(): { options: Partial<RbmSimulatorOptions>; keyFile: string | undefined } {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse().values;
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const options: Partial<RbmSimulatorOptions> = { port: number("port", values.port, 0, 65535) ?? 8787 };
  if (values.host) options.host = values.host;
  const agentId = values["agent-id"];
  if (agentId !== undefined) {
    if (!/^[\w.@-]{1,200}$/.test(agentId)) fail("--agent-id must be letters, digits, _ . @ -");
    options.agentId = agentId;
  }
  if (values["client-token"] !== undefined) {
    if (values["client-token"] === "") fail("--client-token must not be empty");
    options.clientToken = values["client-token"];
  }
  const webhookUrl = values["webhook-url"];
  if (webhookUrl !== undefined) {
    if (!URL.canParse(webhookUrl) || !/^https?:$/.test(new URL(webhookUrl).protocol)) {
      fail("--webhook-url must be an http(s) URL");
    }
    options.webhookUrl = webhookUrl;
  }
  if (values["verify-on-start"]) {
    if (webhookUrl === undefined) fail("--verify-on-start needs --webhook-url");
    options.verifyOnStart = true;
  }
  const keyFile = values["key-file"];
  if (keyFile !== undefined && existsSync(keyFile)) {
    const text = readFileSync(keyFile, "utf8");
    try {
      const key = JSON.parse(text) as { client_email?: unknown; private_key?: unknown };
      if (typeof key.client_email !== "string" || typeof key.private_key !== "string") throw new Error("no key");
    } catch {
      fail(`--key-file ${keyFile} exists but is not a service-account key (client_email, private_key)`);
    }
    options.serviceAccountKey = text;
  }
  const numeric: Array<[keyof typeof values, keyof RbmSimulatorOptions, number, number?]> = [
    ["token-ttl-seconds", "tokenTtlSeconds", 1, 86_400],
    ["rps", "rps", 0],
    ["non-capable-share", "nonCapableShare", 0, 1],
    ["offline-share", "offlineShare", 0, 1],
    ["server-error-share", "serverErrorShare", 0, 1],
    ["delivery-delay-ms", "deliveryDelayMs", 0],
    ["read-share", "readShare", 0, 1],
    ["read-delay-ms", "readDelayMs", 0],
    ["reply-share", "replyShare", 0, 1],
    ["duplicate-share", "duplicateShare", 0, 1],
    ["reorder-share", "reorderShare", 0, 1],
    ["latency-ms", "latencyMs", 0],
    ["webhook-concurrency", "webhookConcurrency", 1, 1_000],
  ];
  for (const [flag, key, min, max] of numeric) {
    const value = number(flag, values[flag] as string | undefined, min, max);
    if (value !== undefined) (options as Record<string, unknown>)[key] = value;
  }
  return { options, keyFile };
}

function line(now: RbmSimulatorStats, before: RbmSimulatorStats): string {
  const time = new Date().toISOString().slice(11, 19);
  return (
    `${time} send ${now.sent - before.sent}/s (total ${now.sent}, not capable ${now.notFound}, ` +
    `throttled ${now.throttled}, reused ids ${now.alreadyExists}, invalid ${now.invalid}, 5xx ${now.serverErrors}) ` +
    `revoked ${now.revoked} checks ${now.capabilityChecks} tokens ${now.tokensIssued} ` +
    `events ${now.eventsPushed - before.eventsPushed}/s (acked ${now.eventsAcked}, pending ${now.webhookPending}, ` +
    `dropped ${now.webhookDropped})`
  );
}

async function main(): Promise<void> {
  const { options, keyFile } = parseOptions();
  const sim = await startRbmSimulator(options);
  if (keyFile !== undefined) {
    // Written with token_uri pointing here; mode 600: it is a private key, if only a simulator's.
    writeFileSync(keyFile, `${sim.serviceAccountKey}\n`, { mode: 0o600 });
  }
  process.stdout.write(
    `RBM simulator listening on port ${sim.port} (agent ${sim.agentId}, token URL ${sim.tokenUrl})` +
      `${sim.stats().verified === true ? " (webhook handshake verified)" : ""}\n` +
      (keyFile !== undefined
        ? `service-account key: ${keyFile}\n`
        : `service-account key (store it in the channel):\n${sim.serviceAccountKey}\n`),
  );
  reportUntilStopped(
    sim,
    (now, before) => now.requests !== before.requests || now.eventsPushed !== before.eventsPushed,
    line,
  );
}

runCli(main);
