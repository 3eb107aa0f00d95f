// Platform notices: admins of a tenant write, publish, withdraw and delete them; customers of the tenant read
// only the published ones; every other tenant's notice answers like a missing one.
import {
  type NoticeDetail,
  type NoticeList,
  type NoticeManageList,
  type NoticeRow,
  UserType,
} from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, get, makeAccount, makeWorld, post, superAdminToken, type World } from "./accounts";
import { createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let w: World;
let other: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
});
afterAll(() => t.close());

async function create(by: Account, body: Record<string, unknown>) {
  const res = await post<NoticeRow>(t, "/notice/create", by.token, body);
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data;
}

describe("admins manage the notices of their tenant", () => {
  it("creates a draft, edits, publishes, withdraws and deletes it", async () => {
    const draft = await create(w.admin, { title: "  Maintenance  ", content: "Sunday 02:00-04:00" });
    expect(draft).toMatchObject({ title: "Maintenance", status: 2, publishedAt: null, tenantId: w.tenantId });

    const edited = await post<NoticeRow>(t, "/notice/edit", w.admin.token, {
      id: draft.id,
      title: "Maintenance window",
      content: "Sunday 02:00-05:00",
    });
    expect(edited.body.data).toMatchObject({ title: "Maintenance window", content: "Sunday 02:00-05:00", status: 2 });

    const published = await post<NoticeRow>(t, "/notice/publish", w.admin.token, { id: draft.id });
    expect(published.body.data.status).toBe(1);
    expect(published.body.data.publishedAt).toEqual(expect.any(String));

    const again = await post(t, "/notice/publish", w.admin.token, { id: draft.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("this notice is already published");

    // Editing a published notice keeps it published.
    const editedLive = await post<NoticeRow>(t, "/notice/edit", w.admin.token, {
      id: draft.id,
      title: "Maintenance window (updated)",
      content: "Sunday 03:00-05:00",
    });
    expect(editedLive.body.data).toMatchObject({ status: 1, publishedAt: published.body.data.publishedAt });

    const withdrawn = await post<NoticeRow>(t, "/notice/withdraw", w.admin.token, { id: draft.id });
    expect(withdrawn.body.data).toMatchObject({ status: 2, publishedAt: null });
    const withdrawAgain = await post(t, "/notice/withdraw", w.admin.token, { id: draft.id });
    expect(withdrawAgain.status).toBe(409);

    const deleted = await post(t, "/notice/delete", w.admin.token, { id: draft.id });
    expect(deleted.body).toMatchObject({ code: 0, data: { id: draft.id } });
    const gone = await post(t, "/notice/delete", w.admin.token, { id: draft.id });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe("notice not found");
  });

  it("lists drafts and published notices of its tenant only, filtered by status and title", async () => {
    const a = await create(w.admin, { title: "List draft alpha", content: "x" });
    const b = await create(w.admin, { title: "List published beta", content: "y", publish: true });
    const foreign = await create(other.admin, { title: "List foreign gamma", content: "z", publish: true });

    const all = await get<NoticeManageList>(t, "/notice/manage/list", w.admin.token, {
      query: { keyword: "list", pageSize: "50" },
    });
    const ids = all.body.data.list.map((n) => n.id);
    expect(ids).toContain(a.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(foreign.id);
    // What customers see first, then the drafts.
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));

    const drafts = await get<NoticeManageList>(t, "/notice/manage/list", w.admin.token, {
      query: { status: "2", keyword: "LIST" },
    });
    expect(drafts.body.data.list.map((n) => n.id)).toEqual([a.id]);
    expect(drafts.body.data.total).toBe(1);

    const badStatus = await get(t, "/notice/manage/list", w.admin.token, { query: { status: "7" } });
    expect(badStatus.status).toBe(400);
  });

  it("puts a notice just published on page 1 however many drafts wait: published by date, then drafts by edit", async () => {
    const own = await makeWorld(t);
    const page = async (n: number) => {
      const res = await get<NoticeManageList>(t, "/notice/manage/list", own.admin.token, {
        query: { page: String(n), pageSize: "3" },
      });
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const older = await create(own.admin, { title: "Published first", content: "x", publish: true });
    const drafts: NoticeRow[] = [];
    for (let i = 1; i <= 4; i++) drafts.push(await create(own.admin, { title: `Draft ${i}`, content: "x" }));
    const first = await page(1);
    expect(first.total).toBe(5);
    expect(first.list.map((n) => n.title)).toEqual(["Published first", "Draft 4", "Draft 3"]);
    expect((await page(2)).list.map((n) => n.title)).toEqual(["Draft 2", "Draft 1"]);

    // The oldest draft, published now, comes first; the draft edited last leads the drafts.
    const published = await post<NoticeRow>(t, "/notice/publish", own.admin.token, { id: drafts[0]!.id });
    expect(published.body.code).toBe(0);
    await post(t, "/notice/edit", own.admin.token, { id: drafts[1]!.id, title: "Draft 2 edited", content: "y" });
    expect((await page(1)).list.map((n) => n.title)).toEqual(["Draft 1", "Published first", "Draft 2 edited"]);
    expect((await page(2)).list.map((n) => n.title)).toEqual(["Draft 4", "Draft 3"]);
    expect(older.status).toBe(1);
  });

  it("answers another tenant's notice like a missing one on every write", async () => {
    const foreign = await create(other.admin, { title: "Foreign", content: "not yours" });
    const missing = await post(t, "/notice/publish", w.admin.token, { id: 2_000_000_000 });
    expect(missing.status).toBe(404);
    for (const [path, body] of [
      ["/notice/edit", { id: foreign.id, title: "Taken over", content: "x" }],
      ["/notice/publish", { id: foreign.id }],
      ["/notice/withdraw", { id: foreign.id }],
      ["/notice/delete", { id: foreign.id }],
    ] as const) {
      const res = await post(t, path, w.admin.token, body);
      expect(res.status, path).toBe(404);
      expect(res.body.message, path).toBe(missing.body.message);
    }
    const row = await t.prisma.notice.findUniqueOrThrow({ where: { id: foreign.id } });
    expect(row).toMatchObject({ title: "Foreign", status: 2 });
  });

  it("checks the input", async () => {
    const empty = await post(t, "/notice/create", w.admin.token, { title: " ", content: "x" });
    expect(empty.status).toBe(400);
    const long = await post(t, "/notice/create", w.admin.token, { title: "x".repeat(201), content: "x" });
    expect(long.status).toBe(400);
    const noContent = await post(t, "/notice/create", w.admin.token, { title: "t" });
    expect(noContent.status).toBe(400);
  });

  it("lets a super admin manage inside the tenant named by the tenant-id header, and needs one to write", async () => {
    const sa = await superAdminToken(t);
    const noTenant = await post(t, "/notice/create", sa.token, { title: "Everywhere", content: "x" });
    expect(noTenant.status).toBe(400);
    const headers = { "tenant-id": String(w.tenantId) };
    const res = await post<NoticeRow>(
      t,
      "/notice/create",
      sa.token,
      { title: "From the platform", content: "x" },
      {
        headers,
      },
    );
    expect(res.body.data.tenantId).toBe(w.tenantId);
    const foreign = await create(other.admin, { title: "Other tenant's", content: "x" });
    const blocked = await post(t, "/notice/delete", sa.token, { id: foreign.id }, { headers });
    expect(blocked.status).toBe(404);
  });
});

describe("customers read the published notices of their tenant", () => {
  it("never sees drafts, withdrawn notices or other tenants' notices", async () => {
    const published = await create(w.admin, {
      title: "Reader published",
      content: `Line one\n\nline two ${"long ".repeat(60)}`,
      publish: true,
    });
    const draft = await create(w.admin, { title: "Reader draft", content: "secret plan" });
    const foreign = await create(other.admin, { title: "Reader foreign", content: "x", publish: true });

    const list = await get<NoticeList>(t, "/notice/list", w.customer1.token, { query: { keyword: "reader" } });
    expect(list.body.data.list.map((n) => n.id)).toEqual([published.id]);
    expect(list.body.data.total).toBe(1);
    const row = list.body.data.list[0];
    expect(row?.excerpt.startsWith("Line one line two")).toBe(true);
    expect(row?.excerpt.length).toBeLessThanOrEqual(160);
    expect(row).not.toHaveProperty("content");

    const detail = await get<NoticeDetail>(t, "/notice/detail", w.customer1.token, {
      query: { id: String(published.id) },
    });
    expect(detail.body.data).toMatchObject({ id: published.id, title: "Reader published" });
    expect(detail.body.data.content).toContain("line two");

    const missing = await get(t, "/notice/detail", w.customer1.token, { query: { id: "2000000000" } });
    expect(missing.status).toBe(404);
    for (const id of [draft.id, foreign.id]) {
      const res = await get(t, "/notice/detail", w.customer1.token, { query: { id: String(id) } });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(missing.body.message);
    }

    await post(t, "/notice/withdraw", w.admin.token, { id: published.id });
    const after = await get<NoticeList>(t, "/notice/list", w.customer2.token, { query: { keyword: "reader" } });
    expect(after.body.data.list).toEqual([]);
    const afterDetail = await get(t, "/notice/detail", w.customer2.token, { query: { id: String(published.id) } });
    expect(afterDetail.status).toBe(404);
  });

  it("pages newest first", async () => {
    const c = await makeAccount(t, UserType.USER, other.tenantId);
    const first = await create(other.admin, { title: "Paged one", content: "1", publish: true });
    const second = await create(other.admin, { title: "Paged two", content: "2", publish: true });
    const page1 = await get<NoticeList>(t, "/notice/list", c.token, {
      query: { keyword: "paged", page: "1", pageSize: "1" },
    });
    expect(page1.body.data).toMatchObject({ total: 2, list: [{ id: second.id }] });
    const page2 = await get<NoticeList>(t, "/notice/list", c.token, {
      query: { keyword: "paged", page: "2", pageSize: "1" },
    });
    expect(page2.body.data.list.map((n) => n.id)).toEqual([first.id]);
  });
});

describe("roles", () => {
  it("refuses management to agents and customers, and reading to staff", async () => {
    const notice = await create(w.admin, { title: "Roles", content: "x" });
    for (const who of [w.agent1, w.customer1]) {
      for (const [path, body] of [
        ["/notice/create", { title: "No", content: "x" }],
        ["/notice/edit", { id: notice.id, title: "No", content: "x" }],
        ["/notice/publish", { id: notice.id }],
        ["/notice/withdraw", { id: notice.id }],
        ["/notice/delete", { id: notice.id }],
      ] as const) {
        const res = await post(t, path, who.token, body);
        expect(res.status, `${who.username} ${path}`).toBe(403);
      }
      const list = await get(t, "/notice/manage/list", who.token);
      expect(list.status).toBe(403);
    }
    for (const who of [w.admin, w.agent1]) {
      expect((await get(t, "/notice/list", who.token)).status).toBe(403);
      expect((await get(t, "/notice/detail", who.token, { query: { id: String(notice.id) } })).status).toBe(403);
    }
    const anonymous = await get(t, "/notice/list", undefined);
    expect(anonymous.status).toBe(401);
    const row = await t.prisma.notice.findUniqueOrThrow({ where: { id: notice.id } });
    expect(row).toMatchObject({ title: "Roles", status: 2 });
  });
});

describe("the tenant's mode in GET /website/config (drives the notice menu)", () => {
  it("gives the host's tenant's mode, and the tenant-id header's tenant's when it names one", async () => {
    const host = await t.prisma.tenantSetting.findUnique({ where: { tenantId: await demoTenantId(t.prisma) } });
    const byHost = await get<Record<string, unknown>>(t, "/website/config", undefined, {
      headers: { host: "127.0.0.1:3000" },
    });
    expect(byHost.body.data.international).toBe(host?.international ?? true);

    // No settings row: international, the schema's default.
    const byHeader = await get<Record<string, unknown>>(t, "/website/config", undefined, {
      headers: { host: "127.0.0.1:3000", "tenant-id": String(w.tenantId) },
    });
    expect(byHeader.body.data.international).toBe(true);

    await t.prisma.tenantSetting.upsert({
      where: { tenantId: w.tenantId },
      create: { tenantId: w.tenantId, international: false },
      update: { international: false },
    });
    const domestic = await get<Record<string, unknown>>(t, "/website/config", undefined, {
      headers: { host: "nobody.example", "tenant-id": String(w.tenantId) },
    });
    expect(domestic.body.data).toMatchObject({ title: "RCS message platform", international: false });
  });

  it("leaves the mode out when no tenant is known, and ignores a malformed header", async () => {
    const unknown = await get<Record<string, unknown>>(t, "/website/config", undefined, {
      headers: { host: "nobody.example" },
    });
    expect(unknown.body.data).not.toHaveProperty("international");
    const malformed = await get<Record<string, unknown>>(t, "/website/config", undefined, {
      headers: { host: "nobody.example", "tenant-id": "abc" },
    });
    expect(malformed.status).toBe(200);
    expect(malformed.body.data).not.toHaveProperty("international");
  });
});
