// The developer API's rate limit per customer (secret key): a small limit through the config (0.5 calls per
// second, bursts of 2), so that a test can drain it with a few quick calls and wait for it to come back.
import { randomBytes } from "node:crypto";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { BatchFixtures, type BatchWorld, get, multiple, post, smsContent } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp({ DEVELOPER_API_RATE_PER_SECOND: "0.5", DEVELOPER_API_BURST: "2" });
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

async function developer() {
  const c = await fx.customer(w, "10.00");
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
  return { ...c, key };
}

const submit = (key: string, lang: "zh" | "en" = "en", headers: Record<string, string> = {}) =>
  post<{ batch: { id: string } }>(t, "/v1/messages", undefined, multiple(w, ["+12025550123"]), {
    headers: { authorization: `Bearer ${key}`, ...headers },
    lang,
  });

/** A cheap call that spends a token: the status of a batch that does not exist (404). */
const poll = (key: string) => get(t, "/v1/batches/999999999999", undefined, {}, { headers: { "x-api-key": key } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("developer API rate limit", () => {
  it("answers 429 with Retry-After and X-RateLimit-* over the limit, and the refused call changes nothing", async () => {
    const d = await developer();
    const first = await poll(d.key);
    expect(first.status).toBe(404);
    expect(first.headers["x-ratelimit-limit"]).toBe("2");
    expect(first.headers["x-ratelimit-remaining"]).toBe("1");
    const second = await poll(d.key);
    expect(second.headers["x-ratelimit-remaining"]).toBe("0");

    const refused = await submit(d.key, "en", { "idempotency-key": "limited-1" });
    expect({ status: refused.status, code: refused.body.code, data: refused.body.data }).toEqual({
      status: 429,
      code: 1,
      data: null,
    });
    expect(refused.body.message).toMatch(/too many requests: at most 0.5 per second per key \(bursts of 2\)/);
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    expect(refused.headers["x-ratelimit-limit"]).toBe("2");
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
    expect(Number(refused.headers["x-ratelimit-reset"])).toBeGreaterThanOrEqual(retryAfter);

    const zh = await submit(d.key, "zh");
    expect(zh.status).toBe(429);
    expect(zh.body.message).toMatch(/请求过于频繁/);

    const form = multipart({ productId: String(w.productId), taskType: "2", content: JSON.stringify(smsContent()) }, [
      { name: "n.csv", data: Buffer.from("+12025550123\n"), field: "file" },
    ]);
    const file = await t.app.inject({
      method: "POST",
      url: "/v1/messages/file",
      headers: { "x-api-key": d.key, "content-type": form.contentType },
      payload: form.payload,
    });
    expect(file.statusCode).toBe(429);

    // Nothing was created or charged, and the refused call's Idempotency-Key was not taken.
    expect(await fx.batchCount(d.id)).toBe(0);
    expect(await fx.balance(d.id)).toBe(100_000n);
    await sleep(retryAfter * 1000);
    const later = await submit(d.key, "en", { "idempotency-key": "limited-1" });
    expect(later.status).toBe(200);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await fx.batchCount(d.id)).toBe(1);
  });

  it("calls made at once take their tokens as one after another would: the burst passes, the rest are refused", async () => {
    const d = await developer();
    const answers = await Promise.all(Array.from({ length: 5 }, () => poll(d.key)));
    const passed = answers.filter((a) => a.status === 404);
    expect(passed).toHaveLength(2);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    // each passed call says what its own take left
    expect(passed.map((a) => a.headers["x-ratelimit-remaining"]).sort()).toEqual(["0", "1"]);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.headers["x-ratelimit-remaining"]).toBe("0");
      expect(Number(a.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    }
  });

  it("one customer over its limit does not slow another", async () => {
    const a = await developer();
    const b = await developer();
    await poll(a.key);
    await poll(a.key);
    expect((await submit(a.key)).status).toBe(429);
    const other = await submit(b.key);
    expect(other.status).toBe(200);
    expect(other.headers["x-ratelimit-remaining"]).toBe("1");
    expect(await fx.batchCount(a.id)).toBe(0);
    expect(await fx.batchCount(b.id)).toBe(1);
  });

  it("works again once the window has passed", async () => {
    const d = await developer();
    await poll(d.key);
    await poll(d.key);
    const refused = await poll(d.key);
    expect(refused.status).toBe(429);
    // Retry-After is the wait for the next call; X-RateLimit-Reset the wait for the whole burst.
    await sleep(Number(refused.headers["x-ratelimit-reset"]) * 1000);
    const again = await submit(d.key);
    expect(again.status).toBe(200);
    expect(again.headers["x-ratelimit-remaining"]).toBe("1");
    expect((await poll(d.key)).status).toBe(404);
  });

  it("documents 429 with its headers in the OpenAPI", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/json" });
    const spec = res.json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }>; description?: string }>>;
    };
    for (const [path, method] of [
      ["/v1/messages", "post"],
      ["/v1/messages/file", "post"],
      ["/v1/batches/{id}", "get"],
    ] as const) {
      const op = spec.paths[path]?.[method];
      expect(Object.keys(op?.responses["429"]?.headers ?? {}), path).toEqual([
        "Retry-After",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
      ]);
      expect(op?.description, path).toMatch(/0\.5 per second with bursts of 2/);
    }
    // Other routes keep the plain 429.
    expect(spec.paths["/batch/submit"]?.post?.responses["429"]?.headers).toBeUndefined();
  });
});
