// Chunk leases (lib/chunk-leases.ts): one chunk is sent by one process at a time, a stopped batch's finish waits
// for the live ones, and a crashed holder's lease runs out by itself.
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ChunkLeases } from "../src/lib/chunk-leases";
import { workerPrefix } from "./helpers";

const redis = new Redis(inject("redisUrl"));
afterAll(() => redis.disconnect());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("chunk leases", () => {
  it("a chunk held is refused to another taker, kept by its holder's renewals and free once released", async () => {
    const leases = new ChunkLeases(redis, workerPrefix(), 5_000);
    const mine = await leases.acquire("7", "c0");
    expect(mine).not.toBeNull();
    expect(await leases.acquire("7", "c0")).toBeNull();
    expect(await mine!.renew()).toBe(true);
    // Another chunk of the same batch is its own lease.
    const other = await leases.acquire("7", "c1");
    expect(other).not.toBeNull();
    expect(await leases.active("7")).toBe(2);
    await mine!.release();
    expect(await leases.active("7")).toBe(1);
    const next = await leases.acquire("7", "c0");
    expect(next).not.toBeNull();
    // A release by a holder that lost the lease leaves the new holder's alone.
    await mine!.release();
    expect(await leases.acquire("7", "c0")).toBeNull();
    await leases.releaseAll([next!, other!]);
    expect(await leases.active("7")).toBe(0);
  });

  it("a holder that stops renewing loses the chunk after the ttl: taken by another, its renewal then refused", async () => {
    const leases = new ChunkLeases(redis, workerPrefix(), 300);
    const crashed = await leases.acquire("8", "c0");
    expect(crashed).not.toBeNull();
    expect(await leases.acquire("8", "c0")).toBeNull();
    await sleep(400);
    expect(await leases.active("8")).toBe(0);
    const taker = await leases.acquire("8", "c0");
    expect(taker).not.toBeNull();
    expect(await crashed!.renew()).toBe(false);
    expect(await leases.active("8")).toBe(1);
    await taker!.release();
  });

  it("a group's leases in one call: each batch's own, the ones held elsewhere refused, released together", async () => {
    const leases = new ChunkLeases(redis, workerPrefix(), 5_000);
    const elsewhere = await leases.acquire("12", "c0");
    const group = ["11", "12", "13"].map((batchId) => ({ batchId, chunk: "c0" }));
    const held = await leases.acquireAll(group);
    expect(held.map((l) => l !== null)).toEqual([true, false, true]);
    expect(await Promise.all(["11", "12", "13"].map((b) => leases.active(b)))).toEqual([1, 1, 1]);
    await leases.releaseAll(held.filter((l) => l !== null));
    expect(await Promise.all(["11", "12", "13"].map((b) => leases.active(b)))).toEqual([0, 1, 0]);
    await elsewhere!.release();
    expect(await leases.active("12")).toBe(0);
  });
});
