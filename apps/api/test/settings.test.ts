// System settings (GET/POST /setting/system) and website configs (/setting/website/*): admins of the tenant and
// super admins for a named tenant; agents and customers refused; another tenant's rows answer like missing ones;
// refused input changes nothing; the settings take effect (a sensitive word sends a batch to review, closed
// registration refuses sign-ups).
import { mkdtempSync, readdirSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BatchStatus, ReviewMode, SENSITIVE_WORDS_MAX, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { get, makeAccount, makeWorld, multipart, NEW_PASSWORD, post, superAdminToken, type World } from "./accounts";
import { BatchFixtures, multiple, smsContent } from "./batch-fixtures";
import { call, createTestApp, type TestContext, uniqueName } from "./helpers";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

let t: TestContext;
let uploadDir: string;
let w: World;
let other: World;
let superToken: string;

beforeAll(async () => {
  uploadDir = mkdtempSync(path.join(tmpdir(), "sb-settings-"));
  t = await createTestApp({ UPLOAD_DIR: uploadDir, PUBLIC_BASE_URL: "https://api.example.test" });
  w = await makeWorld(t);
  other = await makeWorld(t);
  superToken = (await superAdminToken(t)).token;
});
afterAll(() => t.close());

const settingRow = (tenantId: number) => t.prisma.tenantSetting.findUnique({ where: { tenantId } });

function validBody(extra: Record<string, unknown> = {}) {
  return {
    reviewMode: ReviewMode.ABOVE_THRESHOLD,
    reviewThreshold: 250,
    sensitiveWords: ["  casino ", "Casino", "lottery", "", "LOTTERY", "赌博"],
    registrationOpen: false,
    internationalMode: false,
    domesticCountry: "us",
    ...extra,
  };
}

describe("GET /setting/system", () => {
  it("answers the column defaults for a tenant that never saved settings, without creating the row", async () => {
    const res = await get(t, "/setting/system", w.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      tenantId: w.tenantId,
      reviewMode: 1,
      reviewThreshold: 1000,
      sensitiveWords: [],
      registrationOpen: true,
      internationalMode: true,
      domesticCountry: "CN",
      optOutKeywords: ["STOP", "UNSUBSCRIBE", "TD", "退订"],
      updatedAt: null,
    });
    expect(await settingRow(w.tenantId)).toBeNull();
  });

  it("refuses agents and customers with 403", async () => {
    for (const token of [w.agent1.token, w.customer1.token]) {
      const res = await get(t, "/setting/system", token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(1);
    }
    expect((await get(t, "/setting/system", undefined)).status).toBe(401);
  });

  it("answers an admin naming another tenant like a missing tenant", async () => {
    const res = await get(t, "/setting/system", w.admin.token, { query: { tenantId: String(other.tenantId) } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("tenant not found");
  });

  it("lets a super admin read a named tenant's settings, and asks for a tenant otherwise", async () => {
    expect((await get(t, "/setting/system", superToken)).status).toBe(400);
    const res = await get(t, "/setting/system", superToken, { query: { tenantId: String(w.tenantId) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ tenantId: w.tenantId });
    const byHeader = await get(t, "/setting/system", superToken, { headers: { "tenant-id": String(w.tenantId) } });
    expect(byHeader.body.data).toMatchObject({ tenantId: w.tenantId });
    expect((await get(t, "/setting/system", superToken, { query: { tenantId: "99999999" } })).status).toBe(404);
  });
});

describe("POST /setting/system", () => {
  it("saves the opt-out keywords (trimmed, repeats in any case dropped); a body without them keeps them", async () => {
    const saved = await post(t, "/setting/system", w.admin.token, {
      ...validBody(),
      optOutKeywords: [" Stop ", "STOP", "", "退订", "halt"],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ optOutKeywords: ["Stop", "退订", "halt"] });
    const kept = await post(t, "/setting/system", w.admin.token, validBody());
    expect(kept.body.data).toMatchObject({ optOutKeywords: ["Stop", "退订", "halt"] });
    const tooMany = await post(t, "/setting/system", w.admin.token, {
      ...validBody(),
      optOutKeywords: Array.from({ length: 51 }, (_, i) => `K${i}`),
    });
    expect(tooMany.status).toBe(400);
  });

  it("saves every field: words trimmed and deduplicated case-insensitively, the country upper-cased", async () => {
    const res = await post(t, "/setting/system", w.admin.token, validBody());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tenantId: w.tenantId,
      reviewMode: 2,
      reviewThreshold: 250,
      sensitiveWords: ["casino", "lottery", "赌博"],
      registrationOpen: false,
      internationalMode: false,
      domesticCountry: "US",
    });
    expect(await settingRow(w.tenantId)).toMatchObject({
      reviewMode: 2,
      reviewThreshold: 250,
      sensitiveWords: ["casino", "lottery", "赌博"],
      registrationOpen: false,
      international: false,
      domesticCountry: "US",
    });
    const again = await get(t, "/setting/system", w.admin.token);
    expect(again.body.data).toEqual(res.body.data);
    // the client's own international flag in the body is not a setting
    const flagged = await post(t, "/setting/system", w.admin.token, { ...validBody(), international: 1 });
    expect(flagged.body.data).toMatchObject({ internationalMode: false });
  });

  it("refuses invalid input with 400 and changes nothing", async () => {
    await post(t, "/setting/system", w.admin.token, validBody());
    const before = await settingRow(w.tenantId);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ reviewMode: 3 }, /reviewMode/],
      [{ reviewThreshold: -1 }, /reviewThreshold/],
      [{ reviewThreshold: 1.5 }, /reviewThreshold/],
      [{ sensitiveWords: ["x".repeat(51)] }, /too long/],
      [{ sensitiveWords: Array.from({ length: SENSITIVE_WORDS_MAX + 1 }, (_, i) => `w${i}`) }, /at most 500/],
      [{ sensitiveWords: "casino" }, /sensitiveWords/],
      [{ registrationOpen: "yes" }, /registrationOpen/],
      [{ domesticCountry: "USA" }, /domesticCountry/],
      [{ domesticCountry: "ZZ" }, /unknown country code ZZ/],
      [{ internationalMode: undefined }, /internationalMode/],
    ];
    for (const [patch, message] of cases) {
      const res = await post(t, "/setting/system", w.admin.token, validBody({ ...validBody(), ...patch }));
      expect({ status: res.status, patch }).toEqual({ status: 400, patch });
      expect(res.body.message).toMatch(message);
    }
    expect(await settingRow(w.tenantId)).toEqual(before);
  });

  it("accepts 500 distinct words (repeats do not count)", async () => {
    const words = Array.from({ length: SENSITIVE_WORDS_MAX }, (_, i) => `word${i}`);
    const res = await post(t, "/setting/system", w.admin.token, validBody({ sensitiveWords: [...words, ...words] }));
    expect(res.status).toBe(200);
    expect((res.body.data as { sensitiveWords: string[] }).sensitiveWords).toHaveLength(SENSITIVE_WORDS_MAX);
  });

  it("refuses agents, customers and an admin naming another tenant; nothing changes", async () => {
    await post(t, "/setting/system", other.admin.token, validBody({ reviewMode: 0, sensitiveWords: [] }));
    const before = await settingRow(other.tenantId);
    for (const token of [other.agent1.token, other.customer1.token]) {
      expect((await post(t, "/setting/system", token, validBody())).status).toBe(403);
    }
    const foreign = await post(t, "/setting/system", w.admin.token, validBody({ tenantId: other.tenantId }));
    expect(foreign.status).toBe(404);
    expect(await settingRow(other.tenantId)).toEqual(before);
  });

  it("lets a super admin save a named tenant's settings", async () => {
    const res = await post(t, "/setting/system", superToken, validBody({ tenantId: other.tenantId, reviewMode: 1 }));
    expect(res.status).toBe(200);
    expect(await settingRow(other.tenantId)).toMatchObject({ reviewMode: 1 });
    expect((await post(t, "/setting/system", superToken, validBody())).status).toBe(400);
  });

  it("closes registration for the tenant", async () => {
    await post(t, "/setting/system", w.admin.token, validBody({ registrationOpen: false }));
    const closed = await call(t.app, "POST", "/auth/register", {
      body: { username: uniqueName("reg"), password: NEW_PASSWORD },
      headers: { "tenant-id": String(w.tenantId) },
      lang: "en",
    });
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe("registration is closed on this platform");
    await post(t, "/setting/system", w.admin.token, validBody({ registrationOpen: true }));
    const open = await call(t.app, "POST", "/auth/register", {
      body: { username: uniqueName("reg"), password: NEW_PASSWORD },
      headers: { "tenant-id": String(w.tenantId) },
    });
    expect(open.body.code).toBe(0);
  });
});

describe("a sensitive word set in the system settings", () => {
  it("sends a batch whose content contains it to review (status 11), and leaves other batches alone", async () => {
    const fx = new BatchFixtures(t);
    try {
      const bw = await fx.world({ reviewMode: ReviewMode.NEVER });
      const c = await fx.customer(bw);
      const admin = await makeAccount(t, UserType.ADMIN, bw.tenantId);
      const plain = await post<{ batch: { status: number } }>(
        t,
        "/batch/submit",
        c.token,
        multiple(bw, ["+12025550123"], { content: smsContent("Your jackpot awaits") }),
      );
      expect(plain.body.data.batch.status).not.toBe(BatchStatus.UNDER_REVIEW);

      const current = (await get<Record<string, unknown>>(t, "/setting/system", admin.token)).body.data;
      const saved = await post(t, "/setting/system", admin.token, { ...current, sensitiveWords: [" JACKPOT "] });
      expect(saved.status).toBe(200);

      const hit = await post<{ batch: { id: string; status: number } }>(
        t,
        "/batch/submit",
        c.token,
        multiple(bw, ["+12025550123"], { content: smsContent("Your jackpot awaits") }),
      );
      expect(hit.status).toBe(200);
      expect(hit.body.data.batch.status).toBe(BatchStatus.UNDER_REVIEW);
      const row = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(hit.body.data.batch.id) } });
      expect(row.status).toBe(11);

      const clean = await post<{ batch: { status: number } }>(
        t,
        "/batch/submit",
        c.token,
        multiple(bw, ["+12025550123"], { content: smsContent("Your order shipped") }),
      );
      expect(clean.body.data.batch.status).not.toBe(BatchStatus.UNDER_REVIEW);
      await fx.expectLedgersReplay();
    } finally {
      await fx.close();
    }
  });
});

// ---------------------------------------------------------------- website configs

async function uploadLogo(token: string, data: Buffer, fields: Record<string, string> = {}, name = "logo.png") {
  const body = multipart(fields, [{ name, type: "image/png", data }], "file");
  const res = await t.app.inject({
    method: "POST",
    url: "/setting/website/logo",
    headers: { authorization: `Bearer ${token}`, "content-type": body.contentType, lang: "en" },
    payload: body.payload,
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: number; message: string; data: { path: string; url: string } },
  };
}

const logoFiles = (tenantId: number) => {
  try {
    return readdirSync(path.join(uploadDir, "website", String(tenantId)));
  } catch {
    return [];
  }
};

describe("website configs", () => {
  it("uploads a logo, saves a config with it, serves both through GET /website/config and the logo path", async () => {
    const up = await uploadLogo(w.admin.token, PNG);
    expect(up.status).toBe(200);
    expect(up.body.data.path).toMatch(new RegExp(`^/website/logo/${w.tenantId}/[0-9a-f]{32}\\.png$`));
    expect(up.body.data.url).toBe(`https://api.example.test${up.body.data.path}`);

    const host = `${uniqueName("site")}.example.test`.toLowerCase();
    const saved = await post(t, "/setting/website/save", w.admin.token, {
      host: ` ${host.toUpperCase()} `,
      title: "Acme SMS",
      description: "Messages for Acme",
      logo: up.body.data.path,
      logoSmall: "",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      tenantId: w.tenantId,
      host,
      title: "Acme SMS",
      logo: up.body.data.path,
      logoUrl: up.body.data.url,
      logoSmall: null,
      agentId: null,
    });

    const list = await get<{ list: Array<{ host: string }>; total: number }>(t, "/setting/website/list", w.admin.token);
    expect(list.body.data.list.map((r) => r.host)).toContain(host);

    // the host is the tenant's once a super admin approved it (saving it approves)
    expect((saved.body.data as { hostApprovedAt: string | null }).hostApprovedAt).toBeNull();
    const approved = await post(t, "/setting/website/save", superToken, {
      ...(saved.body.data as Record<string, unknown>),
      tenantId: w.tenantId,
    });
    expect(approved.body.data).toMatchObject({ hostApprovedAt: expect.any(String) });
    const site = await call(t.app, "GET", "/website/config", { headers: { host } });
    expect(site.body.data).toMatchObject({ title: "Acme SMS", logo: up.body.data.url, tenantId: w.tenantId });

    const img = await t.app.inject({ method: "GET", url: up.body.data.path });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: `/website/logo/${w.tenantId}/../../etc` })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: "GET", url: `/website/logo/${w.tenantId}/${"0".repeat(32)}.png` })).statusCode,
    ).toBe(404);
  });

  it("refuses files that are not PNG or JPG by content, oversized files, and non-admins", async () => {
    const before = logoFiles(w.tenantId).length;
    const fake = await uploadLogo(w.admin.token, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), {}, "x.png");
    expect(fake.status).toBe(400);
    expect(fake.body.message).toMatch(/not of an accepted type/);
    const pdf = await uploadLogo(w.admin.token, Buffer.from("%PDF-1.4 fake"), {}, "x.png");
    expect(pdf.status).toBe(400);
    const big = await uploadLogo(w.admin.token, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect((await uploadLogo(w.agent1.token, PNG)).status).toBe(403);
    expect((await uploadLogo(w.customer1.token, PNG)).status).toBe(403);
    expect(logoFiles(w.tenantId).length).toBe(before);
  });

  it("keeps hosts unique across tenants, refuses bad input and other tenants' logos; nothing is written", async () => {
    const host = `${uniqueName("h")}.example.test`.toLowerCase();
    const theirs = await post<{ id: number }>(t, "/setting/website/save", other.admin.token, { host, title: "Other" });
    expect(theirs.status).toBe(200);
    const count = await t.prisma.websiteConfig.count();
    // a host held by another tenant (approved or only claimed) is "not available", naming nobody
    const taken = await post(t, "/setting/website/save", w.admin.token, { host, title: "Mine" });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("this host is not available; choose another or contact the platform operator");
    // a super admin is told which config holds it, to change or delete that one
    const held = await post(t, "/setting/website/save", superToken, { tenantId: w.tenantId, host, title: "Mine" });
    expect(held.status).toBe(409);
    expect(held.body.message).toBe(
      `the host ${host} is used by website config #${theirs.body.data.id} of tenant ${other.tenant.code}; ` +
        "change or delete that config first",
    );

    const otherLogo = await uploadLogo(other.admin.token, PNG);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ host: "https://x.example", title: "x" }, 400],
      [{ host: "a b", title: "x" }, 400],
      [{ host: "ok.example.test", title: "" }, 400],
      [{ host: "ok.example.test", title: "x".repeat(101) }, 400],
      [{ host: "ok.example.test", title: "x", logo: "https://evil.example/logo.png" }, 400],
      [{ host: "ok.example.test", title: "x", logo: "/website/logo/1/../../secret.png" }, 400],
      [{ host: "ok.example.test", title: "x", logo: otherLogo.body.data.path }, 400],
      [{ host: "ok.example.test", title: "x", agentId: other.agent1.id }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await post(t, "/setting/website/save", w.admin.token, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code: 1 });
    }
    expect(await t.prisma.websiteConfig.count()).toBe(count);
  });

  it("answers another tenant's config like a missing one on edit and delete, and changes nothing", async () => {
    const host = `${uniqueName("o")}.example.test`.toLowerCase();
    const made = await post<{ id: number }>(t, "/setting/website/save", other.admin.token, { host, title: "Theirs" });
    const id = made.body.data.id;
    const edit = await post(t, "/setting/website/save", w.admin.token, { id, host, title: "Mine now" });
    expect(edit.status).toBe(404);
    expect(edit.body.message).toBe("website config not found");
    const del = await post(t, "/setting/website/delete", w.admin.token, { id });
    expect(del.status).toBe(404);
    expect(await t.prisma.websiteConfig.findUnique({ where: { id } })).toMatchObject({ title: "Theirs" });
    const mine = await get<{ list: Array<{ id: number }> }>(t, "/setting/website/list", w.admin.token);
    expect(mine.body.data.list.map((r) => r.id)).not.toContain(id);
    for (const token of [w.agent1.token, w.customer1.token]) {
      expect((await get(t, "/setting/website/list", token)).status).toBe(403);
      expect((await post(t, "/setting/website/delete", token, { id })).status).toBe(403);
    }
  });

  it("edits and deletes a config, removing a logo no config uses any more", async () => {
    const a = await uploadLogo(w.admin.token, PNG);
    const b = await uploadLogo(w.admin.token, PNG);
    const host = `${uniqueName("e")}.example.test`.toLowerCase();
    const made = await post<{ id: number }>(t, "/setting/website/save", w.admin.token, {
      host,
      title: "First",
      logo: a.body.data.path,
      agentId: w.agent1.id,
    });
    expect(made.body.data).toMatchObject({ agentId: w.agent1.id, agentUser: w.agent1.username });
    const nameOf = (p: string) => p.split("/").pop() as string;
    const edited = await post(t, "/setting/website/save", w.admin.token, {
      id: made.body.data.id,
      host,
      title: "Second",
      logo: b.body.data.path,
      agentId: null,
    });
    expect(edited.body.data).toMatchObject({ title: "Second", logo: b.body.data.path, agentId: null });
    expect(logoFiles(w.tenantId)).not.toContain(nameOf(a.body.data.path));
    expect(logoFiles(w.tenantId)).toContain(nameOf(b.body.data.path));

    const del = await post(t, "/setting/website/delete", w.admin.token, { id: made.body.data.id });
    expect(del.status).toBe(200);
    expect(await t.prisma.websiteConfig.findUnique({ where: { id: made.body.data.id } })).toBeNull();
    expect(logoFiles(w.tenantId)).not.toContain(nameOf(b.body.data.path));
  });

  it("resolves a tenant admin's host only once a super admin approved it, and again after each change of host", async () => {
    const host = `${uniqueName("claim")}.example.test`.toLowerCase();
    const made = await post<{ id: number; hostApprovedAt: string | null }>(t, "/setting/website/save", w.admin.token, {
      host,
      title: "Claimed",
    });
    expect(made.body.data.hostApprovedAt).toBeNull();
    const id = made.body.data.id;
    // a claim decides nothing: no branding, no tenant for sign-in or registration from that host
    const before = await call(t.app, "GET", "/website/config", { headers: { host } });
    expect(before.body.data).toMatchObject({ title: "RCS message platform", tenantId: null });
    const reg = await call(t.app, "POST", "/auth/register", {
      body: { username: uniqueName("h"), password: NEW_PASSWORD },
      headers: { host },
      lang: "en",
    });
    expect(reg.status).toBe(400);
    expect(reg.body.message).toBe("unknown platform (tenant)");

    // approved by a super admin's save; the tenant admin's later edits of other fields keep the approval
    await post(t, "/setting/website/save", superToken, { tenantId: w.tenantId, id, host, title: "Claimed" });
    const retitled = await post<{ hostApprovedAt: string | null }>(t, "/setting/website/save", w.admin.token, {
      id,
      host,
      title: "Renamed",
    });
    expect(retitled.body.data.hostApprovedAt).toEqual(expect.any(String));
    expect((await call(t.app, "GET", "/website/config", { headers: { host } })).body.data).toMatchObject({
      title: "Renamed",
      tenantId: w.tenantId,
    });

    // moving the config to another host waits for approval again; the old host is free, the new one resolves nothing
    const moved = `${uniqueName("moved")}.example.test`.toLowerCase();
    const changed = await post<{ hostApprovedAt: string | null }>(t, "/setting/website/save", w.admin.token, {
      id,
      host: moved,
      title: "Renamed",
    });
    expect(changed.body.data.hostApprovedAt).toBeNull();
    for (const h of [host, moved]) {
      expect((await call(t.app, "GET", "/website/config", { headers: { host: h } })).body.data).toMatchObject({
        tenantId: null,
      });
    }
  });

  it("refuses a logo path that names no stored upload", async () => {
    const host = `${uniqueName("nl")}.example.test`.toLowerCase();
    const res = await post(t, "/setting/website/save", w.admin.token, {
      host,
      title: "x",
      logo: `/website/logo/${w.tenantId}/${"a".repeat(32)}.png`,
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("the logo file does not exist (any more); upload it again");
    expect(await t.prisma.websiteConfig.count({ where: { host } })).toBe(0);
  });

  it("removes uploads no config took within a day, keeps the used ones, and bounds those waiting", async () => {
    const own = await makeWorld(t);
    const nameOf = (p: string) => p.split("/").pop() as string;
    const age = (p: string, hours: number) => {
      const when = new Date(Date.now() - hours * 3600_000);
      utimesSync(path.join(uploadDir, "website", String(own.tenantId), nameOf(p)), when, when);
    };
    const used = (await uploadLogo(own.admin.token, PNG)).body.data.path;
    const forgotten = (await uploadLogo(own.admin.token, PNG)).body.data.path;
    const recent = (await uploadLogo(own.admin.token, PNG)).body.data.path;
    const host = `${uniqueName("sw")}.example.test`.toLowerCase();
    expect((await post(t, "/setting/website/save", own.admin.token, { host, title: "x", logo: used })).status).toBe(
      200,
    );
    age(used, 48);
    age(forgotten, 25);
    age(recent, 23);

    const next = (await uploadLogo(own.admin.token, PNG)).body.data.path;
    expect(logoFiles(own.tenantId).sort()).toEqual([used, recent, next].map(nameOf).sort());
    // the swept path cannot be saved any more
    const late = await post(t, "/setting/website/save", own.admin.token, {
      host: `${uniqueName("late")}.example.test`.toLowerCase(),
      title: "x",
      logo: forgotten,
    });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("the logo file does not exist (any more); upload it again");

    // at most 20 unused uploads wait at once (recent and next are two of them)
    for (let i = 0; i < 18; i++) expect((await uploadLogo(own.admin.token, PNG)).status).toBe(200);
    const refused = await uploadLogo(own.admin.token, PNG);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/too many uploaded logos are not used by any config yet \(20\)/);
    expect(logoFiles(own.tenantId)).toHaveLength(21);
  });

  it("lets a super admin manage a named tenant's configs (and upload its logos)", async () => {
    const up = await uploadLogo(superToken, PNG, { tenantId: String(other.tenantId) });
    expect(up.body.data.path).toMatch(new RegExp(`^/website/logo/${other.tenantId}/`));
    const host = `${uniqueName("s")}.example.test`.toLowerCase();
    const saved = await post(t, "/setting/website/save", superToken, {
      tenantId: other.tenantId,
      host,
      title: "By super admin",
      logo: up.body.data.path,
    });
    expect(saved.body.data).toMatchObject({ tenantId: other.tenantId, host });
    const list = await get<{ list: Array<{ host: string }> }>(t, "/setting/website/list", superToken, {
      query: { tenantId: String(other.tenantId) },
    });
    expect(list.body.data.list.map((r) => r.host)).toContain(host);
    expect((await get(t, "/setting/website/list", superToken)).status).toBe(400);
  });
});
