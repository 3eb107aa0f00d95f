// GET /user/info answers from memory (plugins/auth.ts, userInfoMemory): a change made through this API process is
// seen by the next call at once, a session column changed by hand as soon as its notification arrives, and any
// other change (a balance moved by a worker) within USER_INFO_MAX_AGE_MS.
import { AuthStatus } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USER_INFO_MAX_AGE_MS } from "../src/plugins/auth";
import { BatchFixtures, type BatchWorld, get, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

type Info = { balance: string; nickname: string | null; authStatus: number };
const info = async (token: string) => (await get<Info>(t, "/user/info", token)).body.data;

describe("GET /user/info from memory", () => {
  it("shows a recharge made through the API at once", async () => {
    const c = await fx.customer(w, "10.00");
    expect((await info(c.token)).balance).toBe("10.0000");
    const res = await post(t, "/finance/recharge", w.admin.token, { userId: c.id, amount: "5" });
    expect(res.status).toBe(200);
    expect((await info(c.token)).balance).toBe("15.0000");
  });

  it("shows a balance moved outside this process within its bound, without any request in between", async () => {
    const c = await fx.customer(w, "10.00");
    expect((await info(c.token)).balance).toBe("10.0000");
    // As a worker's refund would: another process, no notification for the balance.
    await t.prisma.user.update({ where: { id: c.id }, data: { balance: { increment: 7_000n } } });
    const deadline = Date.now() + USER_INFO_MAX_AGE_MS + 2_000;
    let seen = "";
    while (Date.now() < deadline && seen !== "10.7000") {
      seen = (await info(c.token)).balance;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe("10.7000");
  });

  it("a session column changed by hand is not served from memory once its notification came", async () => {
    const c = await fx.customer(w, "10.00");
    expect((await info(c.token)).authStatus).toBe(AuthStatus.AUTHENTICATED);
    // A frozen account's sessions end: the session check itself refuses it (plugins/session-cache.ts).
    await t.prisma.user.update({ where: { id: c.id }, data: { status: 2 } });
    const deadline = Date.now() + 5_000;
    let status = 200;
    while (Date.now() < deadline && status === 200) {
      status = (await get(t, "/user/info", c.token)).status;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
  });
});
