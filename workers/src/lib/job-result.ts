/**
 * What a handler returns when its job should run again later without counting as a failure (a chunk of a stopped
 * batch still sending, receipts whose submit outcome is not written yet). The worker moves the job to delayed,
 * with `data` as its new payload when given. Anything else a handler returns means done.
 */
export interface RunAgain<T = unknown> {
  runAgainInMs: number;
  data?: T;
}

export type JobResult<T = unknown> = RunAgain<T> | undefined;

export function isRunAgain(value: unknown): value is RunAgain {
  return typeof value === "object" && value !== null && typeof (value as RunAgain).runAgainInMs === "number";
}

export const runAgain = <T>(runAgainInMs: number, data?: T): RunAgain<T> =>
  data === undefined ? { runAgainInMs } : { runAgainInMs, data };
