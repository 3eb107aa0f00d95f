// HLR lookup simulator from the command line (SMS screening), e.g.
//   node --import tsx packages/channels/src/simulators/hlr-cli.ts --port 8789 --token t0ken --unreachable-share 0.1
import { parseArgs } from "node:util";
import { reportUntilStopped, runCli } from "./cli";
import { type HlrSimulatorOptions, startHlrSimulator } from "./hlr";

const usage = `Usage: hlr-cli [options]
  --host <addr>                 listen address (default 127.0.0.1)
  --port <n>                    listen port (default 8789, 0 = random)
  --token <s>                   require this bearer token (default: none)
  --unreachable-share <0..1>    share of numbers answered unreachable (default 0.1; numbers ending 0000 always)
  --unknown-share <0..1>        share of numbers answered unknown (default 0.02)
  --rps <n>                     lookup requests a second, 0 = unlimited (default 0)`;

function parseOptions(): Partial<HlrSimulatorOptions> {
  const { values } = parseArgs({
    options: {
      host: { type: "string" },
      port: { type: "string" },
      token: { type: "string" },
      "unreachable-share": { type: "string" },
      "unknown-share": { type: "string" },
      rps: { type: "string" },
    },
  });
  const num = (name: string, value: string | undefined, min: number, max: number) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max) {
      process.stderr.write(`--${name} must be a number between ${min} and ${max}\n\n${usage}\n`);
      process.exit(2);
    }
    return n;
  };
  const options: Partial<HlrSimulatorOptions> = { port: num("port", values.port, 0, 65_535) ?? 8789 };
  if (values.host !== undefined) options.host = values.host;
  if (values.token !== undefined) options.token = values.token;
  const unreachable = num("unreachable-share", values["unreachable-share"], 0, 1);
  if (unreachable !== undefined) options.unreachableShare = unreachable;
  const unknown = num("unknown-share", values["unknown-share"], 0, 1);
  if (unknown !== undefined) options.unknownShare = unknown;
  const rps = num("rps", values.rps, 0, 1_000_000);
  if (rps !== undefined) options.requestsPerSecond = rps;
  return options;
}

runCli(async () => {
  const sim = await startHlrSimulator(parseOptions());
  process.stdout.write(`HLR lookup simulator listening at ${sim.url}\n`);
  reportUntilStopped(
    sim,
    (now, before) => now.requests !== before.requests,
    (now, before) =>
      `${new Date().toISOString().slice(11, 19)} lookups ${now.requests - before.requests}/s, numbers ` +
      `${now.numbers - before.numbers}/s (total ${now.numbers}, throttled ${now.throttled}, refused ${now.authFailures})`,
  );
});
