// Screening (task type 1) must never deliver a message: the workers only run the channel's reachability check
// (workers/test/rcs-dispatch.test.ts asserts nothing reaches a phone). At submission, a country whose channel
// cannot check (an SMPP channel without an HLR lookup) or that has no screening price is refused with the
// reason, before anything is charged; a channel that can check is charged the screening price per number.
import { randomBytes } from "node:crypto";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchFixtures, type BatchWorld, multiple, post, smsContent } from "./batch-fixtures";
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

const SCREENING = "cannot check whether numbers can receive";

describe("screening on a channel without a reachability check", () => {
  it("is refused in modes 1 and 2 and by the pre-submit check, with nothing charged or created", async () => {
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
    // the pre-submit check answers per country, saying why this one is not served
    expect(pre.status).toBe(200);
    expect(JSON.stringify(pre.body.data)).toContain("无法检测号码可达性");
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

describe("screening on a channel with a reachability check", () => {
  it("is charged the screening price per number (not the message price), and refused where there is none", async () => {
    const lookup = await fx.world({ reviewMode: 0 });
    await t.prisma.channel.update({
      where: { id: lookup.channelId },
      data: { config: { host: "hlr.example", port: 2775, systemId: "x", lookupUrl: "https://hlr.example/lookup" } },
    });
    await t.prisma.price.updateMany({
      where: { productId: lookup.productId, countryCode: "CN" },
      data: { screeningPrice: 300n },
    });
    const c = await fx.customer(lookup, "10.00");
    const before = await fx.balance(c.id);
    const res = await post(
      t,
      "/batch/submit",
      c.token,
      multiple(lookup, ["+8613800138000", "+8613800138001"], { taskType: 1 }),
      { lang: "en" },
    );
    expect(res.status).toBe(200);
    const batch = await t.prisma.messageBatch.findFirstOrThrow({ where: { userId: c.id } });
    expect(batch.taskType).toBe(1);
    expect(batch.cost).toBe(600n);
    expect(await fx.balance(c.id)).toBe(before - 600n);
    const prices = await t.prisma.recipient.findMany({ where: { batchId: batch.id }, select: { price: true } });
    expect(prices.map((p) => p.price)).toEqual([300n, 300n]);

    // Until it is finished, its reachable numbers cannot be sent to.
    const early = await post(
      t,
      "/batch/screening/send",
      c.token,
      { id: batch.id.toString(), content: smsContent() },
      {
        lang: "en",
      },
    );
    expect(early.status).toBe(400);
    expect(early.body.message).toContain("only a finished screening batch");
    // The workers' answer (workers/test/rcs-dispatch.test.ts): one reachable, one not.
    const [reachable, unreachable] = await t.prisma.recipient.findMany({
      where: { batchId: batch.id },
      orderBy: { id: "asc" },
    });
    await t.prisma.recipient.update({ where: { id: reachable!.id }, data: { sendResult: 1, receiveResult: 1 } });
    await t.prisma.recipient.update({ where: { id: unreachable!.id }, data: { sendResult: 1, receiveResult: 2 } });
    await t.prisma.messageBatch.update({ where: { id: batch.id }, data: { status: 22 } });
    // Someone else's screening batch answers like a missing one.
    const stranger = await fx.customer(lookup, "10.00");
    const foreign = await post(
      t,
      "/batch/screening/send",
      stranger.token,
      { id: batch.id.toString(), content: smsContent() },
      { lang: "en" },
    );
    expect(foreign.status).toBe(404);
    const sent = await post(
      t,
      "/batch/screening/send",
      c.token,
      { id: batch.id.toString(), content: smsContent() },
      {
        lang: "en",
      },
    );
    expect(sent.status).toBe(200);
    const follow = await t.prisma.messageBatch.findFirstOrThrow({ where: { userId: c.id, taskType: 2 } });
    const followed = await t.prisma.recipient.findMany({ where: { batchId: follow.id }, select: { phone: true } });
    expect(followed.map((r) => r.phone)).toEqual([reachable!.phone]);
    expect(follow.productId).toBe(lookup.productId);

    // a US number: the message price exists, the screening price does not
    const us = await post(t, "/batch/submit", c.token, multiple(lookup, ["+12025550123"], { taskType: 1 }), {
      lang: "en",
    });
    expect(us.status).toBe(400);
    expect(us.body.message).toContain("no screening price");
    expect(await fx.balance(c.id)).toBe(before - 600n - follow.cost);
  });
});
