// Tracked links (docs/batches.md, "Tracked links"): GET /l/:code redirects to the link's stored target and records
// the click; forged, unknown and out-of-range codes answer a plain 404; a bad link target is refused at submission
// in the caller's language; the batch detail shows each link's clicks and click-through rate.
import { LINK_CODE_LENGTH, ProductCode } from "@switchboard/contracts";
import { encodeLinkCode, linkSettings } from "@switchboard/domain/links";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let customer: Account;

const A = "https://shop.example/spring?utm=sms";
const B = "https://shop.example/b";

beforeAll(async () => {
  t = await createTestApp({ LINK_BASE_URL: "https://sb.example" });
  fx = new BatchFixtures(t);
  w = await fx.world();
  customer = await fx.customer(w);
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

async function submit(text: string, numbers: string[]): Promise<{ id: string; recipients: bigint[] }> {
  const res = await post<{ batch: { id: string } }>(
    t,
    "/batch/submit",
    customer.token,
    multiple(w, numbers, { content: { product: ProductCode.SMS, text } }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.data.batch.id;
  const rows = await t.prisma.recipient.findMany({ where: { batchId: BigInt(id) }, orderBy: { id: "asc" } });
  return { id, recipients: rows.map((r) => r.id) };
}

const code = (recipientId: bigint, linkIndex: number) =>
  encodeLinkCode(linkSettings(t.config).key, { recipientId, linkIndex });
const follow = (c: string) =>
  t.app.inject({ method: "GET", url: `/l/${c}`, headers: { "user-agent": "TestPhone/1.0" } });

describe("GET /l/:code", () => {
  it("redirects each recipient's code to its link's target and records the click", async () => {
    const batch = await submit(`Sale {{link:${A}}} and {{link:${B}}} again {{link:${A}}}`, [
      "+12025550101",
      "+12025550102",
    ]);
    const [r1, r2] = batch.recipients as [bigint, bigint];

    const first = await follow(code(r1, 0));
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe(A);
    expect(first.headers["cache-control"]).toBe("no-store");
    expect((await follow(code(r1, 0))).headers.location).toBe(A);
    expect((await follow(code(r1, 1))).headers.location).toBe(B);
    expect((await follow(code(r2, 1))).headers.location).toBe(B);

    const clicks = await t.prisma.linkClick.findMany({ where: { batchId: BigInt(batch.id) }, orderBy: { id: "asc" } });
    expect(clicks.map((c) => [c.recipientId, c.linkIndex])).toEqual([
      [r1, 0],
      [r1, 0],
      [r1, 1],
      [r2, 1],
    ]);
    expect(clicks[0]?.userAgent).toBe("TestPhone/1.0");
    expect(clicks[0]?.clickedAt).toBeInstanceOf(Date);

    // The detail: per link clicks and distinct clickers, the batch's distinct clickers over what was sent.
    await t.prisma.messageBatch.update({ where: { id: BigInt(batch.id) }, data: { successCount: 2 } });
    const detail = await get<{ links: unknown }>(t, "/batch/detail", customer.token, { id: batch.id });
    expect(detail.body.data.links).toEqual({
      sent: 2,
      clickers: 2,
      clickRate: 1,
      links: [
        { index: 0, url: A, clicks: 2, clickers: 1, clickRate: 0.5 },
        { index: 1, url: B, clicks: 2, clickers: 2, clickRate: 1 },
      ],
    });
  });

  it("answers a plain 404 for forged, unknown and malformed codes, and records nothing", async () => {
    const batch = await submit(`One {{link:${A}}}`, ["+12025550103"]);
    const [r] = batch.recipients as [bigint];
    const valid = code(r, 0);
    const last = valid.at(-1) === "a" ? "b" : "a";
    const forged = valid.slice(0, -1) + last;
    const unknownRecipient = code(r + 1_000_000_000n, 0);
    for (const c of [forged, unknownRecipient, "x".repeat(LINK_CODE_LENGTH), "short", `${valid}0`]) {
      const res = await follow(c);
      expect(res.statusCode, c).toBe(404);
      expect(res.headers.location, c).toBeUndefined();
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("This link is not valid");
    }
    expect(await t.prisma.linkClick.count({ where: { batchId: BigInt(batch.id) } })).toBe(0);
    expect((await follow(valid)).statusCode).toBe(302);
  });

  it("never reaches another batch's link: an index past the recipient's own batch's list is a 404", async () => {
    const two = await submit(`{{link:${A}}} {{link:${B}}}`, ["+12025550104"]);
    const one = await submit(`Only {{link:https://other.example/x}}`, ["+12025550105"]);
    const [r] = one.recipients as [bigint];
    // A correctly signed code for index 1 of a recipient whose batch has one link.
    expect((await follow(code(r, 1))).statusCode).toBe(404);
    expect((await follow(code(r, 0))).headers.location).toBe("https://other.example/x");
    // A batch without links: every index is out of range.
    const none = await submit("No links here", ["+12025550106"]);
    expect((await follow(code(none.recipients[0] as bigint, 0))).statusCode).toBe(404);
    const detail = await get<{ links: unknown }>(t, "/batch/detail", customer.token, { id: none.id });
    expect(detail.body.data.links).toBeNull();
    expect(two.id).not.toBe(one.id);
  });

  it("is rate-limited per client address: a prober gets 429 after 120 a minute, others are not held", async () => {
    const probe = (remoteAddress: string) =>
      t.app.inject({ method: "GET", url: `/l/${"Z".repeat(LINK_CODE_LENGTH)}`, remoteAddress });
    for (let i = 0; i < 120; i++) expect((await probe("10.9.9.9")).statusCode).toBe(404);
    expect((await probe("10.9.9.9")).statusCode).toBe(429);
    expect((await probe("10.9.9.10")).statusCode).toBe(404);
  });

  it("needs no session and is documented in the OpenAPI document as public", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/docs/json" })).json() as {
      paths: Record<string, { get?: { security?: unknown[]; tags?: string[] } }>;
    };
    const op = doc.paths["/l/{code}"]?.get;
    expect(op?.tags).toEqual(["links"]);
    expect(op?.security).toEqual([]);
  });
});

describe("link placeholders at submission", () => {
  it("are counted at the short link's length: the composer learns it from the website config", async () => {
    const site = await get<{ shortLinkLength: number }>(t, "/website/config", undefined);
    expect(site.body.data.shortLinkLength).toBe("https://sb.example/l/".length + LINK_CODE_LENGTH);
    // 120 characters and one link: 160 as sent (one segment), whatever the target's own length.
    const text = `${"a".repeat(120)}{{link:https://shop.example/a-very-long-campaign-path?utm_source=sms&utm_medium=x}}`;
    const pre = await post<{ segments: number }>(t, "/user/submit/pre", customer.token, {
      productId: w.productId,
      taskType: 2,
      numbers: ["+12025550109"],
      content: { product: ProductCode.SMS, text },
    });
    expect(pre.body.data.segments, JSON.stringify(pre.body)).toBe(1);
    const batch = await submit(`${text}a`, ["+12025550109"]);
    const row = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batch.id) } });
    expect(row.segments).toBe(2);
    expect(row.content).toMatchObject({ linkBaseUrl: "https://sb.example" });
  });

  it("refuses a target that is not http(s), in the caller's language, and writes nothing", async () => {
    const before = await fx.batchCount(customer.id);
    const body = multiple(w, ["+12025550107"], {
      content: { product: ProductCode.SMS, text: "Go {{link:javascript:alert(1)}}" },
    });
    const en = await post(t, "/batch/submit", customer.token, body);
    expect(en.status).toBe(400);
    expect(en.body.message).toContain("the tracked link javascript:alert(1) is not valid");
    const zh = await post(t, "/batch/submit", customer.token, body, { lang: "zh" });
    expect(zh.body.message).toContain("跟踪链接 javascript:alert(1) 无效");
    expect(await fx.batchCount(customer.id)).toBe(before);
  });

  it("refuses more than five distinct links", async () => {
    const text = Array.from({ length: 6 }, (_, i) => `{{link:https://x.example/${i}}}`).join(" ");
    const res = await post(
      t,
      "/batch/submit",
      customer.token,
      multiple(w, ["+12025550108"], { content: { product: ProductCode.SMS, text } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("too many tracked links: 6, at most 5");
  });
});
