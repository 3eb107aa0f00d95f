// Folding the receipts of a long message's parts into one, under its first part's id.
import { describe, expect, it } from "vitest";
import { MultipartReceipts } from "../src/smpp/multipart-receipts";

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s));

describe("MultipartReceipts", () => {
  it("waits for every part, then reports the first part's id with the worst state and the latest date", () => {
    const m = new MultipartReceipts();
    const msg = m.open(3);
    // Parts answered out of order; a part's receipt may come before a later part is answered.
    m.accepted(msg, 1, "b");
    m.accepted(msg, 0, "a");
    expect(m.fold({ providerMessageId: "b", status: "delivered", doneAt: at(3) })).toBeNull();
    m.accepted(msg, 2, "c");
    expect(m.fold({ providerMessageId: "c", status: "expired", errorCode: "017", doneAt: at(9) })).toBeNull();
    expect(m.fold({ providerMessageId: "c", status: "expired" })).toBeNull(); // the same part again
    expect(m.fold({ providerMessageId: "a", status: "delivered", doneAt: at(5) })).toEqual({
      providerMessageId: "a",
      status: "expired",
      errorCode: "017",
      doneAt: at(9),
    });
    expect(m.size).toBe(0);
    // Forgotten once reported: a late duplicate passes through (the worker counts a receipt once).
    expect(m.fold({ providerMessageId: "b", status: "delivered" })).toEqual({
      providerMessageId: "b",
      status: "delivered",
    });
  });

  it("passes other receipts through, forgets refused messages, and the oldest beyond its bounds", () => {
    const m = new MultipartReceipts({ maxMessages: 2, maxAgeMs: 1_000 });
    expect(m.fold({ providerMessageId: "x", status: "delivered" })).toEqual({
      providerMessageId: "x",
      status: "delivered",
    });
    const refused = m.open(2, 0);
    m.accepted(refused, 0, "r1");
    m.abandon(refused);
    expect(m.fold({ providerMessageId: "r1", status: "delivered" })).not.toBeNull();
    const old = m.open(2, 0);
    m.accepted(old, 0, "o1");
    m.open(2, 10);
    m.open(2, 20); // a third: the oldest is forgotten
    expect(m.size).toBe(2);
    expect(m.fold({ providerMessageId: "o1", status: "delivered" })).not.toBeNull();
    m.open(2, 5_000); // later than maxAgeMs: both older ones are forgotten
    expect(m.size).toBe(1);
  });
});
