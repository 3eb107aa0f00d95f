import { describe, expect, it } from "vitest";
import {
  CAPPED_BACKOFF,
  DEFAULT_RETRY_POLICIES,
  QUEUE,
  retryDelayMs,
  retryDelaysMs,
  retryJobOptions,
} from "../src/queues";

describe("retry policies", () => {
  it("name a policy for every queue but the scheduler's ticks", () => {
    const named = Object.keys(DEFAULT_RETRY_POLICIES).sort();
    const queues = (Object.keys(QUEUE) as Array<keyof typeof QUEUE>).filter((q) => q !== "schedule").sort();
    expect(named).toEqual(queues);
  });

  it("become BullMQ's attempts and exponential backoff", () => {
    expect(retryJobOptions(DEFAULT_RETRY_POLICIES.finishBatch)).toEqual({
      attempts: 13,
      backoff: { type: "exponential", delay: 1_000 },
    });
  });
});

describe("the callback retry schedule", () => {
  const policy = DEFAULT_RETRY_POLICIES.callback;
  const delays = retryDelaysMs(policy);

  it("retries for at least 24 hours", () => {
    expect(delays).toHaveLength(policy.attempts - 1);
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3_600_000);
  });

  it("never waits more than an hour between attempts, starting at 10 s and doubling", () => {
    expect(Math.max(...delays)).toBeLessThanOrEqual(3_600_000);
    expect(delays.slice(0, 4)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(delays.at(-1)).toBe(3_600_000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
  });

  it("is BullMQ's custom backoff type, computed by retryDelayMs", () => {
    expect(retryJobOptions(policy)).toEqual({ attempts: 33, backoff: { type: CAPPED_BACKOFF, delay: 10_000 } });
    expect(retryDelayMs(policy, 1)).toBe(10_000);
    expect(retryDelayMs(policy, 30)).toBe(3_600_000);
  });
});
