// WhatsApp Cloud API simulator from the command line, e.g.
//   node --import tsx packages/channels/src/simulators/whatsapp-cli.ts --port 8788 \
//     --webhook-url http://127.0.0.1:3000/api/webhooks/whatsapp/1 --app-secret s3cret --verify-token v3rify \
//     --access-token t0ken --phone-number-id 106540352242922 --waba-id 102290129340398 --mps 80 --read-share 0.5
// Prints one line of counters per second while traffic flows; Ctrl-C / SIGTERM stop it cleanly.
import { parseArgs } from "node:util";
import { reportUntilStopped, runCli } from "./cli";
import { startWhatsappSimulator, type WhatsappSimulatorOptions, type WhatsappSimulatorStats } from "./whatsapp";

const usage = `Usage: whatsapp-cli [options]
  --host <addr>                listen address (default 127.0.0.1)
  --port <n>                   listen port (default 8788, 0 = random)
  --webhook-url <url>          where signed status and message webhooks are pushed (default: none)
  --app-secret <s>             key of X-Hub-Signature-256 (default sim-app-secret)
  --verify-token <s>           hub.verify_token of the GET handshake (default sim-verify-token)
  --verify-on-start            perform the GET handshake against --webhook-url before listening
  --access-token <s>           the only Bearer token accepted (default sim-access-token)
  --phone-number-id <digits>   the business phone number id (default 106540352242922)
  --waba-id <digits>           the WhatsApp Business Account id (default 102290129340398)
  --mps <n>                    messages per second the number takes, 0 = unlimited (default 0)
  --pair-rate-ms <n>           one message per n ms to the same user, 0 = off (Meta: 6000; default 0)
  --read-share <0..1>          share of delivered messages then read (default 0)
  --reply-share <0..1>         share of delivered messages the user answers (default 0)
  --failure-share <0..1>       share of accepted messages ending in a failed status (default 0)
  --undeliverable-share <0..1> share of sends answered 131026 (default 0)
  --server-error-share <0..1>  share of sends answered HTTP 500 (default 0)
  --delivery-delay-ms <n>      delay before delivered / failed (default 50)
  --read-delay-ms <n>          delay from delivered to read (default 200)
  --latency-ms <n>             delay before each API answer (default 0)
  --no-window                  accept free-form messages without an open 24-hour window
Recipients ending 0000 are answered 131026; ending 9999 are accepted, then fail by webhook.`;

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

function digits(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && !/^\d{1,32}$/.test(value)) fail(`--${name} must be digits`);
  return value;
}

function parse() {
  return parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "webhook-url": { type: "string" },
      "app-secret": { type: "string" },
      "verify-token": { type: "string" },
      "verify-on-start": { type: "boolean" },
      "access-token": { type: "string" },
      "phone-number-id": { type: "string" },
      "waba-id": { type: "string" },
      mps: { type: "string" },
      "pair-rate-ms": { type: "string" },
      "read-share": { type: "string" },
      "reply-share": { type: "string" },
      "failure-share": { type: "string" },
      "undeliverable-share": { type: "string" },
      "server-error-share": { type: "string" },
      "delivery-delay-ms": { type: "string" },
      "read-delay-ms": { type: "string" },
      "latency-ms": { type: "string" },
      "no-window": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
}

function parseOptions(): Partial<WhatsappSimulatorOptions> {
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
  const options: Partial<WhatsappSimulatorOptions> = { port: number("port", values.port, 0, 65535) ?? 8788 };
  if (values.host) options.host = values.host;
  const webhookUrl = values["webhook-url"];
  if (webhookUrl !== undefined) {
    if (!URL.canParse(webhookUrl) || !/^https?:$/.test(new URL(webhookUrl).protocol)) {
      fail("--webhook-url must be an http(s) URL");
    }
    options.webhookUrl = webhookUrl;
  }
  if (values["app-secret"] !== undefined) options.appSecret = values["app-secret"];
  if (values["verify-token"] !== undefined) options.verifyToken = values["verify-token"];
  if (values["verify-on-start"]) {
    if (webhookUrl === undefined) fail("--verify-on-start needs --webhook-url");
    options.verifyOnStart = true;
  }
  if (values["access-token"] !== undefined) options.accessToken = values["access-token"];
  const phoneNumberId = digits("phone-number-id", values["phone-number-id"]);
  if (phoneNumberId !== undefined) options.phoneNumberId = phoneNumberId;
  const wabaId = digits("waba-id", values["waba-id"]);
  if (wabaId !== undefined) options.wabaId = wabaId;
  const numeric: Array<[keyof typeof values, keyof WhatsappSimulatorOptions, number, number?]> = [
    ["mps", "mps", 0],
    ["pair-rate-ms", "pairRateIntervalMs", 0],
    ["read-share", "readShare", 0, 1],
    ["reply-share", "replyShare", 0, 1],
    ["failure-share", "failureShare", 0, 1],
    ["undeliverable-share", "undeliverableShare", 0, 1],
    ["server-error-share", "serverErrorShare", 0, 1],
    ["delivery-delay-ms", "deliveryDelayMs", 0],
    ["read-delay-ms", "readDelayMs", 0],
    ["latency-ms", "latencyMs", 0],
  ];
  for (const [flag, key, min, max] of numeric) {
    const value = number(flag, values[flag] as string | undefined, min, max);
    if (value !== undefined) (options as Record<string, unknown>)[key] = value;
  }
  if (values["no-window"]) options.enforceWindow = false;
  return options;
}

function line(now: WhatsappSimulatorStats, before: WhatsappSimulatorStats): string {
  const time = new Date().toISOString().slice(11, 19);
  const failures = Object.entries(now.failuresByCode)
    .map(([code, n]) => `${code}:${n}`)
    .join(",");
  return (
    `${time} send ${now.messagesReceived - before.messagesReceived}/s ` +
    `(total ${now.messagesReceived}: accepted ${now.messagesAccepted}, throttled ${now.throttled + now.pairThrottled}, ` +
    `refused ${failures || "0"}) statuses ${now.statusesPushed - before.statusesPushed}/s ` +
    `(pushed ${now.statusesPushed}, acked ${now.statusesAcked}, pending ${now.webhookPending}, ` +
    `dropped ${now.webhookDropped}) replies ${now.inboundAcked}`
  );
}

async function main(): Promise<void> {
  const sim = await startWhatsappSimulator(parseOptions());
  process.stdout.write(
    `WhatsApp Cloud API simulator listening on port ${sim.port}` +
      `${sim.stats().verified === true ? " (webhook handshake verified)" : ""}\n`,
  );
  reportUntilStopped(
    sim,
    (now, before) => now.requests !== before.requests || now.statusesPushed !== before.statusesPushed,
    line,
  );
}

runCli(main);
