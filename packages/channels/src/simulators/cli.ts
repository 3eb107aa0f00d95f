// What every simulator CLI does once its simulator listens: a counters line each second while traffic moves, and
// a clean stop on SIGINT / SIGTERM (the last counters printed); a start that fails exits non-zero.

interface RunningSimulator<S> {
  stats(): S;
  close(): Promise<void>;
}

export function reportUntilStopped<S>(
  sim: RunningSimulator<S>,
  moved: (now: S, before: S) => boolean,
  line: (now: S, before: S) => string,
): void {
  let before = sim.stats();
  const ticker = setInterval(() => {
    const now = sim.stats();
    if (moved(now, before)) process.stdout.write(`${line(now, before)}\n`);
    before = now;
  }, 1_000);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(ticker);
    process.stdout.write(`${signal}: stopping\n`);
    sim.close().then(
      () => process.stdout.write(`stopped (${JSON.stringify(sim.stats())})\n`),
      (err: unknown) => {
        process.stderr.write(`close failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

/** Runs a CLI's main, turning a failed start into a message and a non-zero exit. */
export function runCli(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
