// WhatsApp message templates: an admin syncs a WS channel's templates from the WhatsApp Cloud API simulator (the
// whole set replaced, paging followed), customers list the approved ones, and a template batch whose template is
// unknown, not approved, or given other values than it takes is refused before anything is charged.
import { DEMO_TEMPLATES, startWhatsappSimulator, type WhatsappSimulator } from "@switchboard/channels/simulators";
import { ProductCode, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, makeWorld, type World } from "./accounts";
import { call, createTestApp, demoTenantId, signIn, type TestContext } from "./helpers";

let t: TestContext;
let sim: WhatsappSimulator;
let w: World;

const WABA = "102290129340398";
const TOKEN = "sim-access-token";

beforeAll(async () => {
  t = await createTestApp();
  sim = await startWhatsappSimulator({ accessToken: TOKEN, wabaId: WABA });
  w = await makeWorld(t);
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

async function waChannel(token: string, config: Record<string, unknown> = {}) {
  const res = await call<{ id: number }>(t.app, "POST", "/channel/create", {
    token,
    body: {
      name: `wa ${Date.now()}`,
      kind: "whatsapp",
      config: {
        baseUrl: sim.url,
        apiVersion: "v21.0",
        phoneNumberId: "106540352242922",
        wabaId: WABA,
        accessToken: TOKEN,
        appSecret: "app-secret",
        webhookVerifyToken: "verify",
        ...config,
      },
    },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data.id;
}

type Sync = { total: number; approved: number; syncedAt: string };
type Row = { name: string; language: string; status: string; bodyParams: number; headerKind: string | null };

describe("syncing a WS channel's templates", () => {
  it("stores every template the account lists (all pages), and a second sync replaces the set", async () => {
    const id = await waChannel(w.admin.token);
    const sync = await call<Sync>(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: w.admin.token,
      body: { id },
    });
    expect(sync.body.code, sync.body.message).toBe(0);
    expect(sync.body.data.total).toBe(DEMO_TEMPLATES.length);
    expect(sync.body.data.approved).toBe(DEMO_TEMPLATES.filter((d) => d.status === "APPROVED").length);
    const list = await call<Row[]>(t.app, "GET", "/channel/whatsapp/templates", {
      token: w.admin.token,
      query: { id: String(id) },
    });
    const reminder = list.body.data.find((r) => r.name === "appointment_reminder");
    expect(reminder).toMatchObject({ bodyParams: 2, headerKind: "TEXT", status: "APPROVED" });

    // Deleted at Meta: gone here after the next sync.
    sim.setOptions({ templates: DEMO_TEMPLATES.filter((d) => d.name !== "appointment_reminder") });
    try {
      const again = await call<Sync>(t.app, "POST", "/channel/whatsapp/templates/sync", {
        token: w.admin.token,
        body: { id },
      });
      expect(again.body.data.total).toBe(DEMO_TEMPLATES.length - 1);
      const after = await call<Row[]>(t.app, "GET", "/channel/whatsapp/templates", {
        token: w.admin.token,
        query: { id: String(id) },
      });
      expect(after.body.data.some((r) => r.name === "appointment_reminder")).toBe(false);
    } finally {
      sim.setOptions({ templates: DEMO_TEMPLATES });
    }
  });

  it("refuses clearly, changing nothing: no WABA id, a refused token, another kind, another tenant's channel", async () => {
    const noWaba = await waChannel(w.admin.token, { wabaId: undefined });
    const a = await call(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: w.admin.token,
      lang: "en",
      body: { id: noWaba },
    });
    expect(a.status).toBe(400);
    expect(a.body.message).toContain("WABA id");

    const badToken = await waChannel(w.admin.token, { accessToken: "not-the-token" });
    const b = await call(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: w.admin.token,
      lang: "en",
      body: { id: badToken },
    });
    expect(b.status).toBe(400);
    expect(b.body.message).toContain("nothing was changed");
    expect(await t.prisma.whatsappTemplate.count({ where: { channelId: badToken } })).toBe(0);

    const sms = await call<{ id: number }>(t.app, "POST", "/channel/create", {
      token: w.admin.token,
      body: {
        name: `sms ${Date.now()}`,
        kind: "smpp",
        config: { host: "127.0.0.1", port: 2775, systemId: "x", password: "y" },
      },
    });
    expect(sms.body.code, sms.body.message).toBe(0);
    const e = await call(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: w.admin.token,
      lang: "en",
      body: { id: sms.body.data.id },
    });
    expect(e.status).toBe(400);
    expect(e.body.message).toContain("only WhatsApp channels have message templates");

    const other = await makeWorld(t);
    const foreign = await waChannel(other.admin.token);
    const c = await call(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: w.admin.token,
      body: { id: foreign },
    });
    expect(c.status).toBe(404);
    const customer = await makeAccount(t, UserType.USER, w.tenantId);
    const d = await call(t.app, "POST", "/channel/whatsapp/templates/sync", {
      token: customer.token,
      body: { id: foreign },
    });
    expect(d.status).toBe(403);
  });
});

describe("template batches on the demo channel (its templates seeded as the simulator lists them)", () => {
  let token: string;
  let productId: number;
  beforeAll(async () => {
    const tenantId = await demoTenantId(t.prisma);
    productId = (await t.prisma.product.findFirstOrThrow({ where: { tenantId, code: ProductCode.WS } })).id;
    token = await signIn(t.app, "customer", "customer", "Customer123");
  });

  const submit = (body: Record<string, unknown>) =>
    call<{ batch: { id: string; cost: string } }>(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: {
        productId,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025558801", "+12025558802"],
        content: { product: ProductCode.WS, body: { type: "template", buttons: [], parameters: [], ...body } },
      },
    });

  it("lists the approved templates the customer's WS product can send", async () => {
    const res = await call<Array<{ name: string; language: string; bodyParams: number }>>(
      t.app,
      "GET",
      "/batch/whatsapp/templates",
      { token, query: { productId: String(productId) } },
    );
    expect(res.body.code).toBe(0);
    const names = res.body.data.map((r) => `${r.name}/${r.language}`);
    expect(names).toContain("order_update/en_US");
    expect(names).toContain("order_update/zh_CN");
    for (const d of DEMO_TEMPLATES.filter((x) => x.status !== "APPROVED")) {
      expect(names).not.toContain(`${d.name}/${d.language}`);
    }
  });

  it("refuses unknown, not approved and mismatched templates before charging; sends one that fits", async () => {
    const before = (await t.prisma.user.findFirstOrThrow({ where: { username: "customer" } })).balance;
    const unknown = await submit({ name: "no_such_template", language: "en_US" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("does not exist on the sending channel");

    const notApproved = DEMO_TEMPLATES.find((d) => d.status !== "APPROVED");
    if (notApproved) {
      const res = await submit({ name: notApproved.name, language: notApproved.language });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("only approved templates can be sent");
    }

    const params = await submit({ name: "order_update", language: "en_US", parameters: ["Ana"] });
    expect(params.status).toBe(400);
    expect(params.body.message).toContain("takes 2 body parameters, 1 were given");

    const header = await submit({ name: "appointment_reminder", language: "en_US", parameters: ["May 3", "10:00"] });
    expect(header.status).toBe(400);
    expect(header.body.message).toContain("needs this header: text");

    const buttons = await submit({
      name: "order_update",
      language: "en_US",
      parameters: ["Ana", "A-1"],
      buttons: [{ index: 0, subType: "url", parameter: "x" }],
    });
    expect(buttons.status).toBe(400);
    expect(buttons.body.message).toContain("button values do not match");

    expect((await t.prisma.user.findFirstOrThrow({ where: { username: "customer" } })).balance).toBe(before);

    const fits = await submit({
      name: "appointment_reminder",
      language: "en_US",
      parameters: ["May 3", "10:00"],
      header: { type: "text", text: "Dr Chen" },
    });
    expect(fits.body.code, fits.body.message).toBe(0);
    // a UTILITY template: the demo's US utility price (0.0120), not its message price (0.0250), per number
    expect(fits.body.data.batch.cost).toBe("0.0240");
  });
});
