// Single sends end to end (issue 20): concurrent mode 1 and mode 2 single-number sends of one customer go through
// the real API (the single-send lane writes them in groups: apps/api/src/modules/batch-submit/single-lane.ts) and
// the real workers to the SMSC simulator. Each mode 1 call answers with the provider's own answer; every send is
// its own batch, reaches 22 with its receipt, is received by the SMSC exactly once, and is charged exactly once;
// the customer's ledger replays to its balance; a number on the opt-out list is refused and never sent.

import type { SimulatorSubmit } from "@switchboard/channels/simulators";
import { BatchStatus, ProductCode, ReceiveResult, SendResult, SubmitMode, TaskType } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../apps/api/src/app";
import { type DemoPlatform, startDemoPlatform } from "./demo-platform";
import { phoneNumbers, waitSettled } from "./helpers";

let platform: DemoPlatform;
let prisma: PrismaClient;
let api: App;
let token: string;
let submits: SimulatorSubmit[];
let customerId: number;

beforeAll(async () => {
  platform = await startDemoPlatform("single_sends", { BATCH_SINGLE_WAIT_MS: "20000" });
  ({ prisma, api, token, submits } = platform);
  customerId = (await prisma.user.findFirstOrThrow({ where: { username: "customer" } })).id;
});
afterAll(() => platform?.close());

interface Answer {
  code: number;
  message: string;
  data: {
    batch: { id: string };
    outcome: string | null;
    recipient: { sendResult: number; providerMessageId: string | null } | null;
  };
}

const submit = async (body: Record<string, unknown>): Promise<Answer> =>
  (
    await api.inject({
      method: "POST",
      url: "/batch/submit",
      headers: { authorization: `Bearer ${token}`, lang: "en" },
      payload: body,
    })
  ).json();

const sms = (n: number) => ({ product: ProductCode.SMS, text: `Your code is ${String(100000 + n)}` });

describe("single sends through the API's lane, the workers and the SMSC simulator", () => {
  it("each is its own batch, answered with the provider's answer, sent once, settled, charged once", async () => {
    const phones = phoneNumbers(60);
    const optedOut = phones[7] as string;
    await prisma.optOut.create({
      data: {
        tenantId: (await prisma.user.findUniqueOrThrow({ where: { id: customerId } })).tenantId as number,
        userId: customerId,
        phone: optedOut,
        source: 1,
      },
    });
    const product = await prisma.product.findFirstOrThrow({ where: { code: ProductCode.SMS } });
    const answers = await Promise.all(
      phones.map((number, i) =>
        submit(
          i % 2 === 0
            ? {
                productId: product.id,
                taskType: TaskType.MESSAGE,
                submitMode: SubmitMode.SINGLE,
                number,
                content: sms(i),
              }
            : {
                productId: product.id,
                taskType: TaskType.MESSAGE,
                submitMode: SubmitMode.MULTIPLE,
                numbers: [number],
                content: sms(i),
              },
        ),
      ),
    );

    // The opted-out number is refused (nothing written); every other send is its own batch.
    const refused = answers[7] as Answer;
    expect(refused.code).toBe(1);
    expect(refused.message).toMatch(/opt/i);
    const sent = answers.filter((_, i) => i !== 7);
    expect(sent.map((a) => a.code)).toEqual(sent.map(() => 0));
    expect(new Set(sent.map((a) => a.data.batch.id)).size).toBe(59);
    // Mode 1 answers carry the SMSC's own answer (its message id).
    for (const a of answers.filter((_, i) => i % 2 === 0 && i !== 7)) {
      expect(a.data.outcome).toBe("accepted");
      expect(a.data.recipient).toMatchObject({ sendResult: SendResult.SUCCESS, providerMessageId: expect.any(String) });
    }

    for (const a of sent) {
      const batch = await waitSettled(prisma, a.data.batch.id);
      expect(batch).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 1, refunded: 0n });
    }
    // Receipts come back after the outcome: all of them recorded.
    const ids = sent.map((a) => BigInt(a.data.batch.id));
    const deadline = Date.now() + 20_000;
    let delivered = 0;
    while (Date.now() < deadline && delivered < 59) {
      delivered = await prisma.recipient.count({
        where: { batchId: { in: ids }, receiveResult: ReceiveResult.RECEIVED },
      });
      if (delivered < 59) await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivered).toBe(59);

    // The SMSC got each number once, the opted-out one never.
    const received = submits
      .filter((s) => s.status === 0)
      .map((s) => (s.destination.startsWith("+") ? s.destination : `+${s.destination}`));
    expect(received.filter((p) => p === optedOut)).toEqual([]);
    expect(new Set(received).size).toBe(59);
    expect(received).toHaveLength(59);

    // Money: one consume row per batch, of its price; the ledger replays to the balance.
    const logs = await prisma.balanceLog.findMany({ where: { batchId: { in: ids } } });
    expect(logs).toHaveLength(59);
    const prices = await prisma.recipient.findMany({
      where: { batchId: { in: ids } },
      select: { batchId: true, price: true },
    });
    const priceOf = new Map(prices.map((r) => [r.batchId.toString(), r.price]));
    for (const l of logs) expect(l.amount).toBe(-(priceOf.get(l.batchId!.toString()) as bigint));
    expect(await verifyLedger(prisma, customerId)).toMatchObject({ ok: true, firstMismatch: null });
  }, 120_000);
});
