// How `npm start` shows its services' log lines. The API and the workers always write JSON, one line per event
// (what production collects); a demo start turns each JSON line into pino-pretty's readable form (time, level,
// message, then the fields on the same line), when pino-pretty is installed (a dev dependency). A production start, or a checkout
// installed without dev dependencies, shows the JSON as it is. Lines that are not JSON (a simulator's own output)
// pass unchanged.

export type LineFormatter = (line: string) => string;

const asIs: LineFormatter = (line) => line;

export async function logLineFormatter(opts: {
  production: boolean;
  colorize: boolean;
  say: (line: string) => void;
}): Promise<LineFormatter> {
  if (opts.production) return asIs;
  let prettyFactory: (options: object) => (input: string) => string;
  try {
    ({ prettyFactory } = (await import("pino-pretty")) as unknown as { prettyFactory: typeof prettyFactory });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw err;
    opts.say("pino-pretty is not installed (npm install without dev dependencies): service logs stay JSON");
    return asIs;
  }
  const pretty = prettyFactory({
    colorize: opts.colorize,
    translateTime: "SYS:HH:MM:ss.l",
    // the [api] / [workers] prefix says which service; pid and host say nothing on one machine
    ignore: "pid,hostname,service",
    // one line per event here too: time, level, message, then the fields as compact JSON
    singleLine: true,
  });
  return (line) => (line.startsWith("{") ? pretty(line).replace(/\n$/, "") : line);
}
