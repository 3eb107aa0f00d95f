// A receipt's job form (jobReport): its times as ISO text, formatted once per distinct time (report-batcher.ts).
import { describe, expect, it } from "vitest";
import { jobReport } from "../src/lib/report-batcher";

describe("jobReport", () => {
  it("writes each receipt's own arrival and done times, however they interleave", () => {
    const at = Date.UTC(2026, 10, 28, 7, 30, 0, 123);
    const doneAt = new Date(Date.UTC(2026, 10, 28, 7, 29));
    const a = jobReport({ providerMessageId: "m1", status: "delivered", doneAt }, at);
    const b = jobReport({ providerMessageId: "m2", status: "undelivered", errorCode: "001" }, at + 1);
    const c = jobReport({ providerMessageId: "m3", status: "delivered", doneAt: new Date(at - 5) }, at);
    const d = jobReport({ providerMessageId: "m4", status: "delivered", doneAt: new Date(Number.NaN) }, at + 1);
    expect(a).toEqual({
      providerMessageId: "m1",
      status: "delivered",
      arrivedAt: "2026-11-28T07:30:00.123Z",
      doneAt: "2026-11-28T07:29:00.000Z",
    });
    expect(b).toEqual({
      providerMessageId: "m2",
      status: "undelivered",
      arrivedAt: "2026-11-28T07:30:00.124Z",
      errorCode: "001",
    });
    expect(c).toMatchObject({ arrivedAt: "2026-11-28T07:30:00.123Z", doneAt: "2026-11-28T07:30:00.118Z" });
    expect(d).toEqual({ providerMessageId: "m4", status: "delivered", arrivedAt: "2026-11-28T07:30:00.124Z" });
  });
});
