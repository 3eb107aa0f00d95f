import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_POLICIES, QUEUE, retryJobOptions } from "../src/queues";

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
