// SMS replies end to end (issue 18): a batch sent over SMPP, then users write back to the sender by SMS
// (mobile-originated deliver_sm from the project's SMSC simulator). Each reply is stored once, matched to the
// customer's batch that last reached the number, a STOP-style reply puts the number on the customer's opt-out list,
// and the customer's notify URL gets an `inbound` callback in the webhook catalogue's shape.
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callbackReceiver,
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  startHarness,
  testPrisma,
  uniqueName,
  waitFor,
  waitSettled,
} from "./helpers";

let prisma: PrismaClient;
let harness: Harness;
let sim: SmscSimulator;

beforeAll(async () => {
  prisma = testPrisma();
  harness = await startHarness();
  sim = await startSmscSimulator({ systemId: "sb_test" });
});
afterAll(async () => {
  await harness?.stop();
  await sim?.close();
  await prisma?.$disconnect();
});

describe("SMS replies (SMPP mobile-originated)", () => {
  it("stores each reply against the batch it answers, opts a STOP sender out, and calls the customer back", async () => {
    const receiver = await callbackReceiver();
    try {
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const customer = await createCustomer(prisma, {
        notifyUrl: receiver.url,
        secretKeyHash: secretKeyHash(`sk_${uniqueName("mo")}`),
      });
      const phones = phoneNumbers(20);
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
      await harness.deps.queues.dispatchBatches([batchId]);
      await waitSettled(prisma, batchId);

      const [yes, stop, stranger] = [phones[3] as string, phones[7] as string, "+12025550999"];
      const long = "Yes please, deliver it tomorrow afternoon. ".repeat(5).trim();
      sim.sendMo({ systemId: "sb_test", from: yes, to: "Switchboard", text: long });
      sim.sendMo({ systemId: "sb_test", from: stop, to: "Switchboard", text: "STOP" });
      sim.sendMo({ systemId: "sb_test", from: stranger, to: "Switchboard", text: "who is this?" });

      const rows = await waitFor("three replies stored", async () => {
        const r = await prisma.inboundMessage.findMany({
          where: { channelId, phone: { in: [yes, stop, stranger] } },
          orderBy: { id: "asc" },
        });
        return r.length === 3 ? r : undefined;
      });
      const byPhone = new Map(rows.map((r) => [r.phone, r]));
      expect(byPhone.get(yes)).toMatchObject({ userId: customer.id, batchId: BigInt(batchId), text: long });
      expect(byPhone.get(stop)).toMatchObject({ userId: customer.id, batchId: BigInt(batchId), text: "STOP" });
      // A number the platform never wrote to is kept, but belongs to nobody.
      expect(byPhone.get(stranger)).toMatchObject({ userId: null, batchId: null });
      // Acknowledged to the SMSC once stored: the long reply's parts too.
      expect(sim.stats().moAcked).toBe(sim.stats().moSent);

      const optOut = await waitFor("STOP sender opted out", () =>
        prisma.optOut.findFirst({ where: { userId: customer.id, phone: stop } }),
      );
      expect(optOut).not.toBeNull();
      expect(await prisma.optOut.count({ where: { userId: customer.id, phone: yes } })).toBe(0);

      const inbound = await waitFor("two inbound callbacks", async () => {
        const got = receiver.requests.filter((r) => r.event === "inbound" && r.answered === 200);
        return got.length >= 2 ? got : undefined;
      });
      expect(receiver.invalid).toEqual([]);
      expect(inbound.map((r) => r.body.data.from).sort()).toEqual([yes, stop].sort());
      expect(inbound.find((r) => r.body.data.from === yes)?.body.data).toMatchObject({ batchId, text: long });
    } finally {
      await receiver.close();
    }
  });
});
