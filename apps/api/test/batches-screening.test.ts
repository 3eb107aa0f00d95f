// Screening (task type 1) must never deliver a message: until a product's reachability check runs in the
// workers, every way of submitting one is refused with a clear reason before anything is charged or created.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secretKeyHash } from "../src/modules/developer/callback-signature";
import { multipart } from "./accounts";
import { BatchFixtures, type BatchWorld, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world({ reviewMode: 0 });
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

const SCREENING = "screening is not available for product";

describe("screening on a product without a reachability check", () => {
  it("is refused in modes 1 and 2, by the pre-submit check and by a file, with nothing charged or created", async () => {
    const c = await fx.customer(w, "10.00");
    const before = await fx.balance(c.id);
    const single = await post(
      t,
      "/batch/submit",
      c.token,
      {
        ...multiple(w, []),
        submitMode: 1,
        numbers: undefined,
        number: "+8613800138000",
        taskType: 1,
      },
      { lang: "en" },
    );
    expect(single.status).toBe(400);
    expect(single.body.message).toContain(SCREENING);
    const many = await post(t, "/batch/submit", c.token, multiple(w, ["+8613800138000"], { taskType: 1 }), {
      lang: "en",
    });
    expect(many.status).toBe(400);
    expect(many.body.message).toContain(SCREENING);
    const pre = await post(t, "/user/submit/pre", c.token, multiple(w, ["+8613800138000"], { taskType: 1 }), {
      lang: "zh",
    });
    expect(pre.status).toBe(400);
    expect(pre.body.message).toContain("暂不支持号码筛查");
    const form = multipart(
      { productId: String(w.productId), taskType: "1", content: JSON.stringify({ product: 3000, text: "Hi" }) },
      [{ name: "numbers.csv", data: Buffer.from("+8613800138000\n"), field: "file" }],
    );
    const file = await t.app.inject({
      method: "POST",
      url: "/batch/submit/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang: "en" },
      payload: form.payload,
    });
    expect(file.statusCode).toBe(400);
    expect(file.json().message).toContain(SCREENING);
    expect(await fx.batchCount(c.id)).toBe(0);
    expect(await fx.balance(c.id)).toBe(before);
  });

  it("is refused over the developer API too", async () => {
    const c = await fx.customer(w, "10.00");
    const key = `sk_${randomBytes(32).toString("base64url")}`;
    await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/messages",
      headers: { authorization: `Bearer ${key}`, lang: "en" },
      payload: multiple(w, ["+8613800138000", "+12025550123"], { taskType: 1 }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(SCREENING);
    expect(await fx.batchCount(c.id)).toBe(0);
  });
});
