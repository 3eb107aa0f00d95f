// Folding the receipts of a long message's parts into one, under its first part's id.
import { describe, expect, it } from "vitest";
import { foldParts, MemoryPartStore, MultipartReceipts } from "../src/smpp/multipart-receipts";

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s));

describe("MultipartReceipts", () => {
  it("waits for every part, then reports the first part's id with the worst state and the latest date", () => {
    const store = new MemoryPartStore();
    const m = new MultipartReceipts(store);
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
    expect(store.size).toBe(0);
    // Forgotten once reported: a late duplicate passes through (the worker counts a receipt once).
    expect(m.fold({ providerMessageId: "b", status: "delivered" })).toEqual({
      providerMessageId: "b",
      status: "delivered",
    });
  });

  it("passes other receipts through, forgets refused messages, and the oldest beyond its bounds", () => {
    const store = new MemoryPartStore({ maxMessages: 2, maxAgeMs: 1_000 });
    const m = new MultipartReceipts(store);
    expect(m.fold({ providerMessageId: "x", status: "delivered" })).toEqual({
      providerMessageId: "x",
      status: "delivered",
    });
    const refused = store.open(2, 0);
    m.accepted(refused, 0, "r1");
    m.abandon(refused);
    expect(m.fold({ providerMessageId: "r1", status: "delivered" })).not.toBeNull();
    const old = store.open(2, 0);
    m.accepted(old, 0, "o1");
    store.open(2, 10);
    store.open(2, 20); // a third: the oldest is forgotten
    expect(store.size).toBe(2);
    expect(m.fold({ providerMessageId: "o1", status: "delivered" })).not.toBeNull();
    store.open(2, 5_000); // later than maxAgeMs: both older ones are forgotten
    expect(store.size).toBe(1);
  });

  it("folds by part order, whichever part reported first: the first part that was not delivered decides", () => {
    const parts = [
      { status: "delivered" as const, doneAt: at(1) },
      { status: "undelivered" as const, errorCode: "001", doneAt: at(4) },
      { status: "expired" as const, errorCode: "017", doneAt: at(2) },
    ];
    expect(foldParts("a", parts)).toEqual({
      providerMessageId: "a",
      status: "undelivered",
      errorCode: "001",
      doneAt: at(4),
    });
    expect(foldParts("a", [parts[0]!, parts[0]!])).toEqual({
      providerMessageId: "a",
      status: "delivered",
      doneAt: at(1),
    });
  });
});
