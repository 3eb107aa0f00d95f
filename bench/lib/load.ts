// The benchmarks' load: calls in a closed loop (a fixed number in flight, each caller waiting for its answer) or
// an open loop (calls offered at a rate whatever the answers do), with latency percentiles.

export interface Driven {
  rate: number;
  p50: number;
  p99: number;
  max: number;
  seconds: number;
}

export interface Offered {
  /** Calls answered per second. */
  answered: number;
  p50: number;
  p99: number;
  max: number;
  /** Calls not made: maxInFlight were already waiting. */
  refused: number;
}

/** Runs `one(i)` for i < n with `inFlight` at once; rate and latency percentiles (ms). */
export async function drive(n: number, inFlight: number, one: (i: number) => Promise<void>): Promise<Driven> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < n) {
        const i = next++;
        const t = performance.now();
        await one(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { rate: n / seconds, ...percentiles(latencies), seconds };
}

/** p50, p99 and max of latencies (ms, rounded); sorts them in place. */
export function percentiles(latencies: number[]) {
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(latencies.at(-1) ?? 0) };
}

/**
 * Offers `rate` calls a second for `seconds` whatever the answers do (an open loop: callers that do not wait for
 * each other, as a platform's traffic is), at most `maxInFlight` at once. Each latency is counted from the moment
 * the call was due, so a stall is not hidden by calls not made meanwhile. The rate is of calls answered.
 */
export async function offer(
  rate: number,
  seconds: number,
  maxInFlight: number,
  one: (i: number) => Promise<void>,
): Promise<Offered> {
  const latencies: number[] = [];
  const total = Math.round(rate * seconds);
  let issued = 0;
  let inFlight = 0;
  let refused = 0;
  const calls: Promise<void>[] = [];
  const t0 = performance.now();
  while (issued < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
    for (; issued < due; issued++) {
      const dueAt = t0 + (issued * 1000) / rate;
      if (inFlight >= maxInFlight) {
        refused++;
        continue;
      }
      inFlight++;
      calls.push(
        one(issued).then(() => {
          inFlight--;
          latencies.push(performance.now() - dueAt);
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(calls);
  const elapsed = (performance.now() - t0) / 1000;
  return { answered: latencies.length / elapsed, ...percentiles(latencies), refused };
}
