// SMS templates (/setting/sms/template/*) and SMS records (/setting/sms/record/list): admins of the tenant and
// super admins for a named tenant; agents and customers refused; another tenant's rows answer like missing
// ones; refused input changes nothing; phone numbers are listed with only their last four digits.
import { ActiveStatus, SmsRecordStatus } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, makeWorld, post, superAdminToken, type World } from "./accounts";
import { createTestApp, type TestContext } from "./helpers";

interface TemplateRow {
  id: number;
  tenantId: number;
  scene: string;
  name: string;
  content: string;
  status: number;
}
interface RecordRow {
  id: string;
  templateId: number | null;
  templateName: string | null;
  scene: string | null;
  phone: string;
  status: number;
}

let t: TestContext;
let w: World;
let other: World;
let superToken: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
  superToken = (await superAdminToken(t)).token;
});
afterAll(() => t.close());

const create = (token: string, body: Record<string, unknown>) =>
  post<TemplateRow>(t, "/setting/sms/template/create", token, body);
const verify = { scene: "verify_code", name: "Verification", content: "Your code is {code}, valid {minutes} min." };

describe("SMS templates", () => {
  it("creates, lists, edits, pauses and deletes a template", async () => {
    const made = await create(w.admin.token, verify);
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ ...verify, tenantId: w.tenantId, status: ActiveStatus.NORMAL });
    const id = made.body.data.id;

    const list = await get<{ list: TemplateRow[]; total: number }>(t, "/setting/sms/template/list", w.admin.token, {
      query: { scene: "verify_code" },
    });
    expect(list.body.data.list.map((r) => r.id)).toContain(id);
    const none = await get<{ total: number }>(t, "/setting/sms/template/list", w.admin.token, {
      query: { scene: "balance_low" },
    });
    expect(none.body.data.total).toBe(0);

    const edited = await post<TemplateRow>(t, "/setting/sms/template/edit", w.admin.token, {
      id,
      scene: "balance_low",
      name: "Low balance",
      content: "Dear {username}, your balance {balance} is below {threshold}.",
    });
    expect(edited.body.data).toMatchObject({ id, scene: "balance_low", name: "Low balance" });

    const paused = await post<TemplateRow>(t, "/setting/sms/template/status", w.admin.token, { id, status: 2 });
    expect(paused.body.data.status).toBe(ActiveStatus.PAUSED);
    const byStatus = await get<{ list: TemplateRow[] }>(t, "/setting/sms/template/list", w.admin.token, {
      query: { status: "2" },
    });
    expect(byStatus.body.data.list.map((r) => r.id)).toEqual([id]);

    expect((await post(t, "/setting/sms/template/delete", w.admin.token, { id })).status).toBe(200);
    expect(await t.prisma.smsTemplate.findUnique({ where: { id } })).toBeNull();
  });

  it("refuses unknown placeholders and bad fields with 400; nothing is created or changed", async () => {
    const count = await t.prisma.smsTemplate.count({ where: { tenantId: w.tenantId } });
    const bad = await create(w.admin.token, { ...verify, content: "Code {code} for {user} {}" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      "the content uses placeholders this scene does not offer: {user}, {} (available: {code}, {minutes})",
    );
    for (const body of [
      { ...verify, scene: "marketing" },
      { ...verify, name: "" },
      { ...verify, content: "x".repeat(1001) },
      { ...verify, status: 3 },
    ]) {
      expect((await create(w.admin.token, body)).status).toBe(400);
    }
    expect(await t.prisma.smsTemplate.count({ where: { tenantId: w.tenantId } })).toBe(count);

    const made = await create(w.admin.token, verify);
    const id = made.body.data.id;
    const edit = await post(t, "/setting/sms/template/edit", w.admin.token, {
      id,
      ...verify,
      content: "Balance {balance}",
    });
    expect(edit.status).toBe(400);
    expect((await post(t, "/setting/sms/template/status", w.admin.token, { id, status: 0 })).status).toBe(400);
    expect(await t.prisma.smsTemplate.findUniqueOrThrow({ where: { id } })).toMatchObject({
      content: verify.content,
      status: 1,
    });
  });

  it("answers another tenant's template like a missing one and leaves it alone", async () => {
    const theirs = (await create(other.admin.token, verify)).body.data;
    const calls: Array<[string, Record<string, unknown>]> = [
      ["/setting/sms/template/edit", { id: theirs.id, ...verify, name: "Hijacked" }],
      ["/setting/sms/template/status", { id: theirs.id, status: 2 }],
      ["/setting/sms/template/delete", { id: theirs.id }],
    ];
    for (const [url, body] of calls) {
      const res = await post(t, url, w.admin.token, body);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("SMS template not found");
      const missing = await post(t, url, w.admin.token, { ...body, id: 2_000_000_000 });
      expect(missing.body).toEqual(res.body);
    }
    expect(await t.prisma.smsTemplate.findUniqueOrThrow({ where: { id: theirs.id } })).toMatchObject({
      name: verify.name,
      status: 1,
    });
    const mine = await get<{ list: TemplateRow[] }>(t, "/setting/sms/template/list", w.admin.token, {
      query: { pageSize: "200" },
    });
    expect(mine.body.data.list.every((r) => r.tenantId === w.tenantId)).toBe(true);
  });

  it("refuses agents and customers with 403 on every call", async () => {
    const count = await t.prisma.smsTemplate.count();
    for (const token of [w.agent1.token, w.customer1.token]) {
      expect((await get(t, "/setting/sms/template/list", token)).status).toBe(403);
      expect((await create(token, verify)).status).toBe(403);
      expect((await post(t, "/setting/sms/template/status", token, { id: 1, status: 2 })).status).toBe(403);
      expect((await post(t, "/setting/sms/template/delete", token, { id: 1 })).status).toBe(403);
      expect((await get(t, "/setting/sms/record/list", token)).status).toBe(403);
    }
    expect(await t.prisma.smsTemplate.count()).toBe(count);
  });

  it("lets a super admin manage a named tenant's templates", async () => {
    const res = await create(superToken, { ...verify, tenantId: other.tenantId });
    expect(res.body.data.tenantId).toBe(other.tenantId);
    expect((await create(superToken, verify)).status).toBe(400);
  });

  it("keeps a template that has records (409) so the records keep it", async () => {
    const tpl = (await create(w.admin.token, verify)).body.data;
    await t.prisma.smsRecord.create({
      data: { tenantId: w.tenantId, templateId: tpl.id, phone: "+8613800138000", status: 1 },
    });
    const res = await post(t, "/setting/sms/template/delete", w.admin.token, { id: tpl.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/pause it instead/);
    expect(await t.prisma.smsTemplate.findUnique({ where: { id: tpl.id } })).not.toBeNull();
  });
});

describe("SMS records", () => {
  it("lists the tenant's records newest first with masked phones, filtered by phone, status and scene", async () => {
    const tpl = (await create(w.admin.token, { ...verify, name: "Records test" })).body.data;
    const base = Date.now();
    await t.prisma.smsRecord.createMany({
      data: [
        { tenantId: w.tenantId, templateId: tpl.id, phone: "+8613911112222", status: 1, createdAt: new Date(base) },
        {
          tenantId: w.tenantId,
          templateId: tpl.id,
          phone: "+12025553333",
          status: 2,
          errorCode: "0x45",
          createdAt: new Date(base + 1000),
        },
        { tenantId: other.tenantId, phone: "+447400444455", status: 1, createdAt: new Date(base + 2000) },
      ],
    });
    const res = await get<{ list: RecordRow[]; total: number }>(t, "/setting/sms/record/list", w.admin.token, {
      query: { templateId: String(tpl.id) },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.list.map((r) => r.phone)).toEqual(["*******3333", "*********2222"]);
    expect(res.body.data.list[0]).toMatchObject({ templateName: "Records test", scene: "verify_code", status: 2 });
    expect(JSON.stringify(res.body)).not.toContain("13911112222");

    const byPhone = await get<{ list: RecordRow[] }>(t, "/setting/sms/record/list", w.admin.token, {
      query: { phone: "139111" },
    });
    expect(byPhone.body.data.list.map((r) => r.phone)).toEqual(["*********2222"]);
    const failed = await get<{ list: RecordRow[] }>(t, "/setting/sms/record/list", w.admin.token, {
      query: { status: String(SmsRecordStatus.FAILED), templateId: String(tpl.id) },
    });
    expect(failed.body.data.list).toHaveLength(1);

    const all = await get<{ list: RecordRow[] }>(t, "/setting/sms/record/list", w.admin.token, {
      query: { pageSize: "200" },
    });
    expect(all.body.data.list.some((r) => r.phone.endsWith("4455"))).toBe(false);
    expect((await get(t, "/setting/sms/record/list", w.admin.token, { query: { phone: "abc" } })).status).toBe(400);
  });
});
