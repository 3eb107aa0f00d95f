// Tracked links end to end (docs/batches.md, "Tracked links"): an SMS batch with a `{{link:...}}` goes through the
// real API (submission) and workers (dispatch) to the SMSC simulator, which keeps the text it received. Each
// recipient's text carries its own short link, of the length its segments were priced with; following one redirects
// to the stored target, and the click shows in the batch detail.

import type { SimulatorSubmit } from "@switchboard/channels/simulators";
import { BatchStatus, countSegments, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../apps/api/src/app";
import { type DemoPlatform, startDemoPlatform } from "./demo-platform";
import { phoneNumbers, waitSettled } from "./helpers";

let platform: DemoPlatform;
let prisma: PrismaClient;
let api: App;
let token: string;
let submits: SimulatorSubmit[];

const TARGET = "https://shop.example/spring-sale?utm_source=sms&utm_campaign=links";
const LINK_BASE = "https://sb.example";

beforeAll(async () => {
  // The API's own settings: the workers learn where links are served from the batch (its content keeps it).
  platform = await startDemoPlatform("links", { LINK_BASE_URL: LINK_BASE });
  ({ prisma, api, token, submits } = platform);
});
afterAll(() => platform?.close());

const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
  api.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, lang: "en" },
    ...(payload ? { payload } : {}),
  });

describe("a tracked link through the API, the workers and the SMSC simulator", () => {
  it("sends each recipient its own short link, redirects it to the target and counts the click", async () => {
    const phones = phoneNumbers(2);
    const text = `Spring sale: {{link:${TARGET}}} Reply STOP to opt out`;
    const res = await call("POST", "/batch/submit", {
      productCode: 3000,
      taskType: 2,
      submitMode: 2,
      numbers: phones,
      content: { product: 3000, text },
    });
    expect(res.json().code, res.body).toBe(0);
    const batchId = res.json().data.batch.id as string;
    const settled = await waitSettled(prisma, batchId);
    expect(settled.status).toBe(BatchStatus.SEND_FINISHED);
    expect(settled.successCount).toBe(2);

    // What the SMSC received: the placeholder replaced by a short link, a different one per recipient.
    const received = new Map(submits.filter((s) => s.status === 0).map((s) => [s.destination, s.text]));
    const pattern = /^Spring sale: https:\/\/sb\.example\/l\/([0-9A-Za-z]{19}) Reply STOP to opt out$/;
    const codes = phones.map((p) => {
      const got = received.get(p.slice(1)) ?? received.get(p) ?? "";
      const m = pattern.exec(got);
      expect(m, got).not.toBeNull();
      return m?.[1] as string;
    });
    expect(new Set(codes).size).toBe(2);
    // Priced as sent: the segments charged are the segments of the text the SMSC got.
    const recipients = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
    for (const r of recipients) {
      expect(r.sendResult).toBe(SendResult.SUCCESS);
      expect(r.segments).toBe(countSegments(received.get(r.phone.slice(1)) ?? received.get(r.phone) ?? "").segments);
    }

    // The first recipient follows its link.
    const click = await api.inject({ method: "GET", url: `/l/${codes[0]}`, headers: { "user-agent": "Phone" } });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(TARGET);

    const detail = await call("GET", `/batch/detail?id=${batchId}`);
    expect(detail.json().data.links).toEqual({
      sent: 2,
      clickers: 1,
      clickRate: 0.5,
      links: [{ index: 0, url: TARGET, clicks: 1, clickers: 1, clickRate: 0.5 }],
    });
  }, 90_000);
});
