// The outage line: one when it goes, at most one per repeat interval while it lasts, one when it is back; no
// credentials; connection failures told apart from other errors. A fake clock and timers, an injected logger.

import {
  addressOf,
  connectionFailure,
  createOutages,
  Outage,
  redisRetryStrategy,
} from "@switchboard/domain/outage-log";
import { describe, expect, it } from "vitest";

interface Line {
  level: "warn" | "info";
  msg: string;
  fields: object;
}

function recorder() {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      warn: (fields: object, msg: string) => lines.push({ level: "warn", msg, fields }),
      info: (fields: object, msg: string) => lines.push({ level: "info", msg, fields }),
    },
  };
}

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6390"), { code: "ECONNREFUSED" });

describe("Outage", () => {
  it("says it once, repeats at most every 30 s while it lasts, and once when it is back", () => {
    let now = 1_000_000;
    const { lines, logger } = recorder();
    const outage = new Outage({
      what: "Redis",
      where: "127.0.0.1:6390",
      retryEveryMs: 5_000,
      logger,
      now: () => now,
    });
    // A reconnect error every 100 ms for 95 s: 950 errors (a BullMQ worker and its queues each report theirs).
    for (let i = 0; i < 950; i++) {
      expect(outage.report(refused())).toBe(true);
      now += 100;
    }
    outage.up();
    outage.up(); // a second "ready" says nothing
    expect(lines.map((l) => l.msg)).toEqual([
      "Redis unreachable at 127.0.0.1:6390 (ECONNREFUSED), retrying every 5 s",
      "Redis still unreachable at 127.0.0.1:6390 for 30 s (ECONNREFUSED), retrying every 5 s",
      "Redis still unreachable at 127.0.0.1:6390 for 60 s (ECONNREFUSED), retrying every 5 s",
      "Redis still unreachable at 127.0.0.1:6390 for 90 s (ECONNREFUSED), retrying every 5 s",
      "Redis reachable again at 127.0.0.1:6390 after 95 s",
    ]);
    expect(lines.map((l) => l.level)).toEqual(["warn", "warn", "warn", "warn", "info"]);
    expect(outage.isDown).toBe(false);
    // A new outage starts a new first line.
    outage.report(refused());
    expect(lines).toHaveLength(6);
    expect(lines[5]?.msg).toMatch(/^Redis unreachable/);
  });

  it("leaves errors that are not connection failures to the caller", () => {
    const { lines, logger } = recorder();
    const outage = new Outage({ what: "Redis", where: "h:1", retryEveryMs: 5_000, logger });
    expect(outage.report(new Error("ERR unknown command"))).toBe(false);
    expect(outage.report("text")).toBe(false);
    expect(lines).toHaveLength(0);
    expect(outage.isDown).toBe(false);
  });

  it("probes PostgreSQL while it is away and ends the outage at the first answer", async () => {
    let now = 0;
    const timers: Array<() => void> = [];
    const { lines, logger } = recorder();
    let answers = false;
    let probes = 0;
    const outage = new Outage({
      what: "PostgreSQL",
      where: "db:5432",
      retryEveryMs: 5_000,
      logger,
      now: () => now,
      probe: async () => {
        probes++;
        if (!answers) throw Object.assign(new Error("unreachable"), { code: "P1001" });
      },
      setTimer: (fn) => {
        timers.push(fn);
        return {};
      },
      clearTimer: () => undefined,
    });
    outage.report({ name: "PrismaClientKnownRequestError", code: "P1001" });
    const tick = async () => {
      now += 5_000;
      timers.shift()?.();
      await new Promise((r) => setImmediate(r));
    };
    await tick();
    await tick();
    expect(probes).toBe(2);
    expect(timers).toHaveLength(1); // the next probe is waiting
    answers = true;
    await tick();
    expect(timers).toHaveLength(0);
    expect(lines.map((l) => l.msg)).toEqual([
      "PostgreSQL unreachable at db:5432 (P1001), retrying every 5 s",
      "PostgreSQL reachable again at db:5432 after 15 s",
    ]);
  });
});

describe("connectionFailure", () => {
  it("finds the cause through Prisma's driver adapter error, causes and aggregate errors", () => {
    expect(
      connectionFailure({
        name: "PrismaClientKnownRequestError",
        code: "P2010",
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable" } } },
      }),
    ).toBe("DatabaseNotReachable");
    expect(connectionFailure({ code: "P1001" })).toBe("P1001");
    expect(connectionFailure(new Error("outer", { cause: { code: "ETIMEDOUT" } }))).toBe("ETIMEDOUT");
    expect(connectionFailure(new AggregateError([{ code: "ECONNREFUSED" }]))).toBe("ECONNREFUSED");
    expect(connectionFailure(new Error("Connection is closed."))).toBe("Connection is closed");
    expect(connectionFailure({ code: "57P03" })).toBe("57P03");
    expect(connectionFailure({ code: "P2002" })).toBeNull();
    expect(connectionFailure(new Error("boom"))).toBeNull();
  });
});

describe("createOutages", () => {
  it("names each server without its credentials and gives each error to the server it names", () => {
    const { lines, logger } = recorder();
    const outages = createOutages({
      redisUrl: "redis://:s3cret@cache.internal:6380/2",
      databaseUrl: "postgresql://app:hunter2@db.internal/switchboard",
      logger,
      probePostgres: async () => undefined,
    });
    expect(outages.redis.where).toBe("cache.internal:6380");
    expect(outages.postgres.where).toBe("db.internal:5432");
    expect(outages.report({ name: "PrismaClientKnownRequestError", code: "P1001" })).toBe(true);
    expect(
      outages.report(Object.assign(new Error("x"), { code: "ECONNREFUSED", hostname: "cache.internal", port: 6380 })),
    ).toBe(true);
    // A refused connection to some other server (a provider, a customer's URL) is not ours to absorb.
    expect(
      outages.report(Object.assign(new Error("y"), { code: "ECONNREFUSED", address: "10.0.0.9", port: 443 })),
    ).toBe(false);
    expect(lines.map((l) => l.msg)).toEqual([
      "PostgreSQL unreachable at db.internal:5432 (P1001), retrying every 5 s",
      "Redis unreachable at cache.internal:6380 (ECONNREFUSED), retrying every 5 s",
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain("hunter2");
    outages.postgres.close();
  });

  it("addressOf and the Redis retry delay", () => {
    expect(addressOf("redis://127.0.0.1", 6379)).toBe("127.0.0.1:6379");
    expect(addressOf("not a url", 1)).toBe("(unparsable URL)");
    expect([1, 2, 10].map(redisRetryStrategy)).toEqual([500, 5_000, 5_000]);
  });
});
