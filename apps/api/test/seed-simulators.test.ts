// The demo seed pointed at simulators elsewhere than npm start's loopback ones: docker compose's demo profile
// (services smsc, hlr, whatsapp, rbm) and the production-start check (a free port).
import { channelSecretKey, decryptSecrets } from "@switchboard/channels";
import { ProductCode } from "@switchboard/contracts";
import { createPrisma } from "@switchboard/db";
import { DEMO_SIMULATOR_ADDRESSES, seed } from "@switchboard/domain/seed";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ThrowawayDatabase, throwawayDatabase } from "./throwaway-db";

let db: ThrowawayDatabase;
beforeAll(async () => {
  db = await throwawayDatabase("seedsim");
});
afterAll(() => db?.drop());

describe("the demo seed's simulator addresses", () => {
  it("defaults to npm start's loopback simulators", () => {
    expect(DEMO_SIMULATOR_ADDRESSES).toEqual({
      smsc: { host: "127.0.0.1", port: 2775 },
      hlr: { host: "127.0.0.1", port: 8789 },
      whatsapp: { host: "127.0.0.1", port: 8788 },
      rbm: { host: "127.0.0.1", port: 8787 },
    });
  });

  it("points every demo channel at the addresses given, the RBM key's token URL included", async () => {
    const prisma = createPrisma(db.url, { max: 2 });
    try {
      const secret = inject("channelSecretKey");
      await seed(prisma, {
        mode: "demo",
        channelSecretKey: secret,
        simulators: {
          smsc: { host: "smsc", port: 2775 },
          hlr: { host: "hlr", port: 8789 },
          whatsapp: { host: "whatsapp", port: 8788 },
          rbm: { host: "rbm", port: 8787 },
        },
      });
      const channels = await prisma.channel.findMany({ orderBy: { id: "asc" } });
      const byKind = Object.fromEntries(channels.map((c) => [c.kind, c]));
      expect(byKind.smpp).toMatchObject({
        productCode: ProductCode.SMS,
        config: { host: "smsc", port: 2775, lookupUrl: "http://hlr:8789/lookup" },
      });
      expect(byKind.whatsapp?.config).toMatchObject({
        baseUrl: "http://whatsapp:8788",
        contactsCheckUrl: "http://whatsapp:8788/v1/contacts",
      });
      expect(byKind.rcs?.config).toMatchObject({ baseUrl: "http://rbm:8787", tokenUrl: "http://rbm:8787/token" });
      const rcs = byKind.rcs!;
      const { serviceAccountKey } = decryptSecrets(channelSecretKey(secret), rcs.tenantId, rcs.secrets);
      expect(JSON.parse(serviceAccountKey ?? "{}").token_uri).toBe("http://rbm:8787/token");
    } finally {
      await prisma.$disconnect();
    }
  });
});
