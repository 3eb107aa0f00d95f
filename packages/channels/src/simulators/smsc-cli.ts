// SMSC simulator from the command line, e.g.
//   node --import tsx packages/channels/src/simulators/smsc-cli.ts --port 2775 --latency-ms 5 \
//     --throttle 2000 --failure-share 0.01 --receipts on --receipt-delay-ms 200 --mix delivered=0.95,undeliv=0.05
// Prints one line of counters per second while traffic flows; Ctrl-C / SIGTERM stop it cleanly.
import { parseArgs } from "node:util";
import { reportUntilStopped, runCli } from "./cli";
import { type OutcomeMix, type SmscSimulatorOptions, type SmscStats, startSmscSimulator } from "./smsc";

const usage = `Usage: smsc-cli [options]
  --host <addr>              listen address (default 127.0.0.1)
  --port <n>                 listen port (default 2775, 0 = random)
  --system-id <id>           require this system_id (default: accept any)
  --password <pw>            require this password (default: accept any)
  --max-binds <n>            binds one system_id may hold at once; one more gets ESME_RALYBND (default: no limit)
  --latency-ms <n>           delay before submit_sm_resp (default 0)
  --throttle <n>             max submit_sm per second per session, 0 = unlimited (default 0)
  --failure-share <0..1>     share of submits answered ESME_RINVDSTADR (default 0)
  --receipts on|off          send delivery receipts (default on)
  --receipt-delay-ms <n>     delay before each receipt (default 0)
  --mix k=v,...              receipt outcome shares: delivered, undeliv, expired, rejected (default delivered=1)
  --message-id-format decimal|hex
  --receipt-tlv-id same|other-form|omit
  --reply-share <0..1>       share of delivered messages the user answers with a mobile-originated SMS (default 0)
  --reply-delay-ms <n>       delay after the receipt before the answer (default 300)
  --reply-text <text>        what the user writes (default "Thanks!")
Destinations ending 0000 fail at submit; ending 9999 / 9998 / 9997 get UNDELIV / EXPIRED / REJECTD.`;

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

function parseMix(value: string): OutcomeMix {
  const mix: OutcomeMix = { delivered: 0, undelivered: 0, expired: 0, rejected: 0 };
  const keys: Record<string, keyof OutcomeMix> = {
    delivered: "delivered",
    delivrd: "delivered",
    undeliv: "undelivered",
    undelivered: "undelivered",
    expired: "expired",
    rejected: "rejected",
    rejectd: "rejected",
  };
  for (const pair of value.split(",")) {
    const [rawKey, rawShare] = pair.split("=");
    const key = keys[(rawKey ?? "").trim().toLowerCase()];
    const share = Number(rawShare);
    if (key === undefined || !Number.isFinite(share) || share < 0) fail(`--mix: cannot read "${pair}"`);
    mix[key] = share;
  }
  return mix;
}

function parseOptions(): Partial<SmscSimulatorOptions> {
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
  const options: Partial<SmscSimulatorOptions> = { port: number("port", values.port, 0, 65535) ?? 2775 };
  if (values.host) options.host = values.host;
  if (values["system-id"] !== undefined) options.systemId = values["system-id"];
  if (values.password !== undefined) options.password = values.password;
  const maxBinds = number("max-binds", values["max-binds"], 1);
  if (maxBinds !== undefined) options.maxBindsPerAccount = maxBinds;
  const latency = number("latency-ms", values["latency-ms"], 0);
  if (latency !== undefined) options.latencyMs = latency;
  const throttle = number("throttle", values.throttle, 0);
  if (throttle !== undefined) options.throttle = throttle;
  const failureShare = number("failure-share", values["failure-share"], 0, 1);
  if (failureShare !== undefined) options.failureShare = failureShare;
  const receiptDelay = number("receipt-delay-ms", values["receipt-delay-ms"], 0);
  if (receiptDelay !== undefined) options.receiptDelayMs = receiptDelay;
  if (values.receipts !== undefined) {
    if (values.receipts !== "on" && values.receipts !== "off") fail("--receipts must be on or off");
    options.receipts = values.receipts === "on";
  }
  if (values.mix !== undefined) options.outcomeMix = parseMix(values.mix);
  const replyShare = number("reply-share", values["reply-share"], 0, 1);
  if (replyShare !== undefined) options.replyShare = replyShare;
  const replyDelay = number("reply-delay-ms", values["reply-delay-ms"], 0);
  if (replyDelay !== undefined) options.replyDelayMs = replyDelay;
  if (values["reply-text"] !== undefined) {
    if (values["reply-text"] === "" || values["reply-text"].length > 1000)
      fail("--reply-text must be 1-1000 characters");
    options.replyText = values["reply-text"];
  }
  const idFormat = values["message-id-format"];
  if (idFormat !== undefined) {
    if (idFormat !== "decimal" && idFormat !== "hex") fail("--message-id-format must be decimal or hex");
    options.messageIdFormat = idFormat;
  }
  const tlvId = values["receipt-tlv-id"];
  if (tlvId !== undefined) {
    if (tlvId !== "same" && tlvId !== "other-form" && tlvId !== "omit") {
      fail("--receipt-tlv-id must be same, other-form or omit");
    }
    options.receiptTlvId = tlvId;
  }
  return options;
}

function parse() {
  return parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "system-id": { type: "string" },
      password: { type: "string" },
      "max-binds": { type: "string" },
      "latency-ms": { type: "string" },
      throttle: { type: "string" },
      "failure-share": { type: "string" },
      receipts: { type: "string" },
      "receipt-delay-ms": { type: "string" },
      mix: { type: "string" },
      "message-id-format": { type: "string" },
      "receipt-tlv-id": { type: "string" },
      "reply-share": { type: "string" },
      "reply-delay-ms": { type: "string" },
      "reply-text": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
}

function line(now: SmscStats, before: SmscStats): string {
  const time = new Date().toISOString().slice(11, 19);
  return (
    `${time} submit ${now.submitReceived - before.submitReceived}/s ` +
    `(total ${now.submitReceived}: accepted ${now.submitAccepted}, throttled ${now.submitThrottled}, ` +
    `failed ${now.submitFailed}, parts ${now.multipartParts}) ` +
    `receipts ${now.receiptsSent - before.receiptsSent}/s (sent ${now.receiptsSent}, acked ${now.receiptsAcked}, ` +
    `pending ${now.receiptsPending}) replies ${now.moAcked} sessions ${now.sessions}`
  );
}

async function main(): Promise<void> {
  const sim = await startSmscSimulator(parseOptions());
  process.stdout.write(`SMSC simulator listening on port ${sim.port}\n`);
  reportUntilStopped(
    sim,
    (now, before) => now.submitReceived !== before.submitReceived || now.receiptsSent !== before.receiptsSent,
    line,
  );
}

runCli(main);
