// Identity authentication: the submit policy, the seven-day exemption, submissions with documents, review,
// and documents served only to those who may see them.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AuthenticationRow, UserType } from "@switchboard/contracts";
import { canSubmitBatches } from "@switchboard/domain/authentication-policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectFileKind } from "../src/plugins/uploads";
import {
  type Account,
  type FilePart,
  get,
  makeAccount,
  makeWorld,
  multipart,
  post,
  SAMPLE,
  superAdminToken,
  type World,
} from "./accounts";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let w: World;
let sa: { id: number; token: string };
let uploadDir: string;

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(tmpdir(), "sb-auth-"));
  t = await createTestApp({ UPLOAD_DIR: uploadDir });
  w = await makeWorld(t);
  sa = await superAdminToken(t);
});
afterAll(async () => {
  await t.close();
  await rm(uploadDir, { recursive: true, force: true });
});

type List<T> = { list: T[]; total: number };
const DAY = 24 * 3600 * 1000;

const validFields = {
  subjectType: "2",
  name: "Acme Trading Co., Ltd.",
  idNumber: "91310000MA1FL8XX3K",
  contactName: "Li Lei",
  contactPhone: "+86 138 0000 0000",
};

async function save(who: Account, fields: Record<string, string>, files: FilePart[], lang = "en") {
  const { payload, contentType } = multipart(fields, files);
  const res = await t.app.inject({
    method: "POST",
    url: "/user/authentication/save",
    headers: { authorization: `Bearer ${who.token}`, "content-type": contentType, lang },
    payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; message: string; data: AuthenticationRow } };
}

const png = (name = "id-front.png"): FilePart => ({ name, type: "image/png", data: SAMPLE.png });
const pdf = (name = "licence.pdf"): FilePart => ({ name, type: "application/pdf", data: SAMPLE.pdf });

async function storedFiles(tenantId: number): Promise<string[]> {
  const dir = path.join(uploadDir, "authentication", String(tenantId));
  return existsSync(dir) ? readdir(dir) : [];
}

describe("canSubmitBatches", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  const later = new Date(now.getTime() + DAY);
  const earlier = new Date(now.getTime() - 1);
  const base = { status: 1, authStatus: 0, authRequirement: 0, authExemptUntil: null as Date | null };
  it.each([
    ["authenticated", { authStatus: 2 }, { allowed: true }],
    ["exempt (requirement 1), never authenticated", { authRequirement: 1 }, { allowed: true }],
    ["inside a seven-day grant", { authExemptUntil: later }, { allowed: true }],
    ["inside a grant while under review", { authStatus: 1, authExemptUntil: later }, { allowed: true }],
    ["exempt and rejected", { authRequirement: 1, authStatus: 3 }, { allowed: true }],
    ["not authenticated", {}, { allowed: false, reason: "authentication.submit_required" }],
    ["under review", { authStatus: 1 }, { allowed: false, reason: "authentication.submit_pending_review" }],
    ["rejected", { authStatus: 3 }, { allowed: false, reason: "authentication.submit_rejected" }],
    [
      "grant expired",
      { authExemptUntil: earlier },
      { allowed: false, reason: "authentication.submit_exemption_expired" },
    ],
    [
      "grant ending exactly now",
      { authExemptUntil: now },
      { allowed: false, reason: "authentication.submit_exemption_expired" },
    ],
    ["frozen though authenticated", { status: 2, authStatus: 2 }, { allowed: false, reason: "auth.frozen" }],
    ["frozen though exempt", { status: 2, authRequirement: 1 }, { allowed: false, reason: "auth.frozen" }],
    ["frozen inside a grant", { status: 2, authExemptUntil: later }, { allowed: false, reason: "auth.frozen" }],
  ])("%s", (_name, over, expected) => {
    expect(canSubmitBatches({ ...base, ...over }, now)).toEqual(expected);
  });
});

describe("file kinds by magic bytes", () => {
  it.each([
    [SAMPLE.png, "png"],
    [SAMPLE.jpg, "jpg"],
    [SAMPLE.pdf, "pdf"],
    [Buffer.from("GIF89a......"), null],
    [Buffer.from("just text with a .png name"), null],
    [Buffer.from([0x89, 0x50, 0x4e]), null],
    [Buffer.alloc(0), null],
  ])("%#: detects %s", (data, kind) => {
    expect(detectFileKind(data)).toBe(kind);
  });
});

describe("POST /user/seven/day/authenticate", () => {
  it("grants a customer seven days from now, visible in the list and enforced by the policy", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const before = Date.now();
    const res = await post<{ userId: number; authExemptUntil: string }>(
      t,
      "/user/seven/day/authenticate",
      w.agent1.token,
      {
        userId: c.id,
      },
    );
    expect(res.status).toBe(200);
    const until = new Date(res.body.data.authExemptUntil).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 7 * DAY);
    expect(until).toBeLessThanOrEqual(Date.now() + 7 * DAY);
    const list = await get<List<{ id: number; authExemptUntil: string }>>(t, "/user/list", w.admin.token, {
      query: { keyword: c.username },
    });
    expect(list.body.data.list[0]?.authExemptUntil).toBe(res.body.data.authExemptUntil);
    const info = await get<{ authExemptUntil: string }>(t, "/user/info", c.token);
    expect(info.body.data.authExemptUntil).toBe(res.body.data.authExemptUntil);
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } });
    expect(canSubmitBatches(row, new Date())).toEqual({ allowed: true });
    expect(canSubmitBatches(row, new Date(until + 1)).allowed).toBe(false);
  });

  it("lets admins and super admins grant any customer of the tenant", async () => {
    expect((await post(t, "/user/seven/day/authenticate", w.admin.token, { userId: w.customer2.id })).status).toBe(200);
    expect((await post(t, "/user/seven/day/authenticate", sa.token, { userId: w.direct.id })).status).toBe(200);
  });

  it("answers 404 for non-customers and customers out of reach; 403 for customers; 400 for bad input", async () => {
    const other = await makeWorld(t);
    for (const [token, userId] of [
      [w.agent1.token, w.customer2.id],
      [w.admin.token, other.customer1.id],
      [w.admin.token, w.agent1.id],
      [w.admin.token, 99_999_999],
    ] as const) {
      const res = await post(t, "/user/seven/day/authenticate", token, { userId });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("user not found");
    }
    expect((await post(t, "/user/seven/day/authenticate", w.customer1.token, { userId: w.customer1.id })).status).toBe(
      403,
    );
    expect((await post(t, "/user/seven/day/authenticate", w.admin.token, {})).status).toBe(400);
    expect((await post(t, "/user/seven/day/authenticate", w.admin.token, { userId: "abc" })).status).toBe(400);
    expect((await post(t, "/user/seven/day/authenticate", w.admin.token, { userId: 1.5 })).status).toBe(400);
  });
});

describe("POST /user/authentication/save", () => {
  it("stores the submission and its documents, and moves the customer to authenticating", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const before = (await storedFiles(w.tenantId)).length;
    const jpg: FilePart = { name: "photo.JPG", type: "image/jpeg", data: SAMPLE.jpg };
    const res = await save(c, validFields, [png(), pdf(), jpg]);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      userId: c.id,
      user: c.username,
      agentId: w.agent1.id,
      subjectType: 2,
      name: validFields.name,
      idNumber: validFields.idNumber,
      contactName: "Li Lei",
      contactPhone: "+86 138 0000 0000",
      documentCount: 3,
      status: 1,
      reason: null,
      reviewerId: null,
    });
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).authStatus).toBe(1);
    const row = await t.prisma.authentication.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(row.documents).toHaveLength(3);
    for (const [i, ext] of ["png", "pdf", "jpg"].entries()) {
      expect(row.documents[i]).toMatch(new RegExp(`^authentication/${w.tenantId}/[0-9a-f]{32}\\.${ext}$`));
    }
    expect((await storedFiles(w.tenantId)).length).toBe(before + 3);
  });

  it("accepts a resubmission after a rejection, refuses one while waiting or once authenticated (409)", async () => {
    const rejected = await makeAccount(t, UserType.USER, w.tenantId, { authStatus: 3 });
    expect((await save(rejected, validFields, [png()])).status).toBe(200);
    const again = await save(rejected, validFields, [png()]);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("your authentication is already waiting for review");
    const done = await makeAccount(t, UserType.USER, w.tenantId, { authStatus: 2 });
    const res = await save(done, validFields, [png()]);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("this account is already authenticated");
  });

  it("lets exactly one of parallel submissions through, and leaves no files of the others", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const before = (await storedFiles(w.tenantId)).length;
    const results = await Promise.all(Array.from({ length: 5 }, () => save(c, validFields, [png(), pdf()])));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await t.prisma.authentication.count({ where: { userId: c.id } })).toBe(1);
    expect((await storedFiles(w.tenantId)).length).toBe(before + 2);
  });

  it.each([
    ["no documents", validFields, [], 400, "upload 1 to 5 document files (documents)"],
    ["six documents", validFields, Array.from({ length: 6 }, () => png()), 413, "at most 5 files may be uploaded"],
    [
      "a file over 5 MB",
      validFields,
      [{ name: "big.png", data: Buffer.concat([SAMPLE.png, Buffer.alloc(5 * 1024 * 1024)]) }],
      413,
      "each file must be at most 5 MB",
    ],
    [
      "text named .png and declared image/png",
      validFields,
      [{ name: "fake.png", type: "image/png", data: Buffer.from("not an image at all") }],
      400,
      "file documents.0 is not of an accepted type (png, jpg, pdf)",
    ],
    [
      "a GIF after a good PNG",
      validFields,
      [png(), { name: "a.gif", type: "image/gif", data: Buffer.from("GIF89a-----") }],
      400,
      "file documents.1 is not of an accepted type (png, jpg, pdf)",
    ],
    ["an empty file", validFields, [{ name: "e.png", data: Buffer.alloc(0) }], 400, "file documents.0 is empty"],
    ["a file in another field", validFields, [{ ...png(), field: "avatar" }], 400, "unexpected file field avatar"],
    ["a missing name", { ...validFields, name: "" }, [png()], 400, "field name is required"],
    ["no idNumber", { ...validFields, idNumber: undefined }, [png()], 400, "field idNumber is required"],
    ["subject type 3", { ...validFields, subjectType: "3" }, [png()], 400, "field subjectType must be one of: 1, 2"],
    [
      "a malformed ID number",
      { ...validFields, idNumber: "12 34;drop" },
      [png()],
      400,
      "field idNumber has an invalid format",
    ],
    ["a name over 200", { ...validFields, name: "n".repeat(201) }, [png()], 400, "field name must be at most 200 long"],
    ["a field over 4 KB", { ...validFields, name: "n".repeat(5000) }, [png()], 413, "request too large"],
    [
      "a bad phone",
      { ...validFields, contactPhone: "call me" },
      [png()],
      400,
      "field contactPhone has an invalid format",
    ],
  ] as const)("refuses %s (%#) and changes nothing", async (_name, fields, files, status, message) => {
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const before = (await storedFiles(w.tenantId)).length;
    const clean = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    const res = await save(c, clean, [...files]);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ code: 1, message, data: null });
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).authStatus).toBe(0);
    expect(await t.prisma.authentication.count({ where: { userId: c.id } })).toBe(0);
    expect((await storedFiles(w.tenantId)).length).toBe(before);
  });

  it("refuses a JSON body and a broken multipart body with 400", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const json = await post(t, "/user/authentication/save", c.token, validFields);
    expect(json.status).toBe(400);
    expect(json.body.message).toBe("unsupported content type");
    const broken = await t.app.inject({
      method: "POST",
      url: "/user/authentication/save",
      headers: { authorization: `Bearer ${c.token}`, "content-type": "multipart/form-data; boundary=xyz", lang: "en" },
      payload: '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nAcme',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 1, message: "the upload is not valid multipart/form-data" });
  });

  it("is for customers only (403), and needs a session (401)", async () => {
    for (const who of [w.admin, w.agent1]) expect((await save(who, validFields, [png()])).status).toBe(403);
    const res = await t.app.inject({ method: "POST", url: "/user/authentication/save" });
    expect(res.statusCode).toBe(401);
  });
});

describe("review: POST /user/authentication/pass and /reject", () => {
  async function waiting(agentId: number | null = w.agent1.id, tenant = w) {
    const c = await makeAccount(t, UserType.USER, tenant.tenantId, { agentId });
    const res = await save(c, validFields, [png()]);
    expect(res.status).toBe(200);
    return { customer: c, id: res.body.data.id };
  }

  it("passes once: the submission and the customer become authenticated; a second decision is refused", async () => {
    const { customer, id } = await waiting();
    const res = await post<AuthenticationRow>(t, "/user/authentication/pass", w.agent1.token, { id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 2, reviewerId: w.agent1.id, reason: null });
    expect(res.body.data.reviewedAt).not.toBeNull();
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: customer.id } })).authStatus).toBe(2);
    for (const url of ["/user/authentication/pass", "/user/authentication/reject"]) {
      const again = await post(t, url, w.admin.token, { id, reason: "late" });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("this submission has already been reviewed");
    }
  });

  it("rejects once with a reason; the customer may submit again", async () => {
    const { customer, id } = await waiting(null);
    const res = await post<AuthenticationRow>(t, "/user/authentication/reject", w.admin.token, {
      id,
      reason: "The licence photo is blurred",
    });
    expect(res.body.data).toMatchObject({ status: 3, reason: "The licence photo is blurred", reviewerId: w.admin.id });
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: customer.id } })).authStatus).toBe(3);
    expect((await save(customer, validFields, [pdf()])).status).toBe(200);
  });

  it("applies exactly one of ten parallel decisions", async () => {
    const { customer, id } = await waiting();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? post(t, "/user/authentication/pass", w.admin.token, { id })
          : post(t, "/user/authentication/reject", w.agent1.token, { id, reason: "no" }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const row = await t.prisma.authentication.findUniqueOrThrow({ where: { id } });
    const user = await t.prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
    expect(user.authStatus).toBe(row.status);
  });

  it("answers 404 for submissions out of reach, 403 for customers, 400 for bad input", async () => {
    const { id } = await waiting(w.agent1.id);
    const other = await makeWorld(t);
    expect((await post(t, "/user/authentication/pass", w.agent2.token, { id })).status).toBe(404);
    expect((await post(t, "/user/authentication/pass", other.admin.token, { id })).status).toBe(404);
    const missing = await post(t, "/user/authentication/pass", w.admin.token, { id: 99_999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("authentication submission not found");
    expect((await post(t, "/user/authentication/pass", w.customer1.token, { id })).status).toBe(403);
    expect((await post(t, "/user/authentication/reject", w.admin.token, { id })).body.message).toBe(
      "field reason is required",
    );
    expect((await post(t, "/user/authentication/reject", w.admin.token, { id, reason: "  " })).status).toBe(400);
    expect((await post(t, "/user/authentication/reject", w.admin.token, { id, reason: "r".repeat(501) })).status).toBe(
      400,
    );
    expect((await post(t, "/user/authentication/pass", w.admin.token, { id: "x" })).status).toBe(400);
    expect((await t.prisma.authentication.findUniqueOrThrow({ where: { id } })).status).toBe(1);
  });
});

describe("GET /user/authentication/list", () => {
  it("shows admins the tenant's, agents their customers', customers their own; newest first; filters", async () => {
    const world = await makeWorld(t);
    const s1 = await save(world.customer1, validFields, [png()]);
    const s2 = await save(world.customer2, { ...validFields, name: "Zhang San", subjectType: "1" }, [png()]);
    const s3 = await save(world.direct, validFields, [pdf()]);
    await post(t, "/user/authentication/reject", world.admin.token, { id: s3.body.data.id, reason: "x" });
    const list = async (who: Account, query: Record<string, string> = {}) =>
      (await get<List<AuthenticationRow>>(t, "/user/authentication/list", who.token, { query })).body.data;

    expect((await list(world.admin)).list.map((r) => r.id)).toEqual([s3, s2, s1].map((s) => s.body.data.id));
    expect((await list(world.agent1)).list.map((r) => r.id)).toEqual([s1.body.data.id]);
    expect((await list(world.customer2)).list.map((r) => r.id)).toEqual([s2.body.data.id]);
    expect((await list(world.admin, { status: "3" })).list.map((r) => r.id)).toEqual([s3.body.data.id]);
    expect((await list(world.admin, { keyword: "zhang" })).list.map((r) => r.id)).toEqual([s2.body.data.id]);
    expect((await list(world.admin, { keyword: world.customer1.username })).total).toBe(1);
    expect((await list(world.admin, { userId: String(world.direct.id) })).total).toBe(1);
    expect((await list(world.admin, { from: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await list(world.admin, { pageSize: "2", page: "2" })).list).toHaveLength(1);
    // another tenant's admin and super admins
    expect((await list(w.admin, { userId: String(world.direct.id) })).total).toBe(0);
    const superList = await get<List<AuthenticationRow>>(t, "/user/authentication/list", sa.token, {
      headers: { "tenant-id": String(world.tenantId) },
    });
    expect(superList.body.data.total).toBe(3);
  });

  it.each([
    [{ status: "0" }],
    [{ status: "x" }],
    [{ keyword: "k".repeat(101) }],
    [{ from: "soon" }],
    [{ pageSize: "0" }],
  ])("refuses the query %j with 400", async (query) => {
    expect((await get(t, "/user/authentication/list", w.admin.token, { query })).status).toBe(400);
  });
});

describe("GET /user/authentication/document", () => {
  async function fetchDoc(token: string | undefined, query: Record<string, string>) {
    return t.app.inject({
      method: "GET",
      url: "/user/authentication/document",
      query,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), lang: "en" },
    });
  }

  it("streams each document with its content type to the owner, its agent, the admin and super admins", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const { body } = await save(c, validFields, [png(), pdf()]);
    const id = String(body.data.id);
    for (const token of [c.token, w.agent1.token, w.admin.token, sa.token]) {
      const first = await fetchDoc(token, { id, index: "0" });
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toBe("image/png");
      expect(first.headers["cache-control"]).toBe("private, no-store");
      expect(first.headers["x-content-type-options"]).toBe("nosniff");
      expect(first.rawPayload.equals(SAMPLE.png)).toBe(true);
      const second = await fetchDoc(token, { id, index: "1" });
      expect(second.headers["content-type"]).toBe("application/pdf");
      expect(second.rawPayload.equals(SAMPLE.pdf)).toBe(true);
    }
  });

  it("answers 404 to everybody else, exactly like a missing submission", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const { body } = await save(c, validFields, [png()]);
    const id = String(body.data.id);
    const other = await makeWorld(t);
    const missing = (await fetchDoc(w.admin.token, { id: "99999999", index: "0" })).json();
    for (const token of [w.customer1.token, w.agent2.token, other.admin.token, other.customer1.token]) {
      const res = await fetchDoc(token, { id, index: "0" });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing);
    }
    const noSuchIndex = await fetchDoc(c.token, { id, index: "1" });
    expect(noSuchIndex.statusCode).toBe(404);
    expect(noSuchIndex.json().message).toBe("document not found");
  });

  it("answers 404 when the file is gone from disk, 400 for bad input, 401 without a session", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const { body } = await save(c, validFields, [png()]);
    const row = await t.prisma.authentication.findUniqueOrThrow({ where: { id: body.data.id } });
    await rm(path.join(uploadDir, row.documents[0]!));
    expect((await fetchDoc(c.token, { id: String(row.id), index: "0" })).statusCode).toBe(404);
    expect((await fetchDoc(c.token, { id: String(row.id), index: "5" })).statusCode).toBe(400);
    expect((await fetchDoc(c.token, { id: String(row.id), index: "-1" })).statusCode).toBe(400);
    expect((await fetchDoc(c.token, { index: "0" })).statusCode).toBe(400);
    expect((await fetchDoc(undefined, { id: String(row.id), index: "0" })).statusCode).toBe(401);
  });
});
