// The password policy (docs/decisions.md, "Passwords") on every route that sets a password: popular passwords
// and the username are refused with a message that says why, letters of every script are welcome, length is
// counted in characters (code points), and a password is the same however its characters were composed.
import { UserType } from "@switchboard/contracts";
import { verifyPassword } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireAcceptablePassword } from "../src/modules/auth/password-policy";
import { makeAccount, makeWorld, NEW_PASSWORD, post, superAdminToken, type World } from "./accounts";
import { call, createTestApp, demoTenantId, signIn, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let tenantId: number;
let w: World;
let sa: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApp();
  tenantId = await demoTenantId(t.prisma);
  w = await makeWorld(t);
  sa = await superAdminToken(t);
});
afterAll(() => t.close());

const TOO_COMMON =
  "this password is too common (it or a variant of it is on lists of popular passwords); choose another";
const HAS_USERNAME = "the password must not contain the username";
const GUESSABLE = "this password is too easy to guess; make it longer, for example a few unrelated words";

const register = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  call(t.app, "POST", "/auth/register", { body, headers, lang: "en" });

describe("passwords refused, on every route that sets one", () => {
  it.each(["password1", "Passw0rd1", "iloveyou1", "qwertyuiop", "Welcome123"])(
    "refuses the popular %s at registration, writing nothing",
    async (password) => {
      const username = uniqueName("pp");
      const res = await register({ username, password });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 1, message: TOO_COMMON, data: null });
      expect(await t.prisma.user.count({ where: { username } })).toBe(0);
    },
  );

  it("refuses the username with a digit, in any case, and says so", async () => {
    const username = uniqueName("Maria");
    for (const password of [`${username}1`, `${username.toUpperCase()}!7`, `x-${username.toLowerCase()}-x`]) {
      const res = await register({ username, password });
      expect({ password, status: res.status, message: res.body.message }).toEqual({
        password,
        status: 400,
        message: HAS_USERNAME,
      });
    }
    expect(await t.prisma.user.count({ where: { username } })).toBe(0);
  });

  it("counts the tenant's own name as guessable", async () => {
    const tenant = await t.prisma.tenant.create({
      data: { code: uniqueName("zq").toLowerCase().slice(0, 32), name: "Zorbaxquel Messaging" },
    });
    const inTenant = await register(
      { username: uniqueName("z"), password: "Zorbaxquel!1" },
      { "tenant-id": String(tenant.id) },
    );
    expect(inTenant.status).toBe(400);
    expect(inTenant.body.message).toBe(GUESSABLE);
    // the same password where the word means nothing is fine
    expect((await register({ username: uniqueName("z"), password: "Zorbaxquel!1" })).body.code).toBe(0);
  });

  it("applies to account creation, tenant creation with its admin, a password change and a reset", async () => {
    const customer = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const before = await t.prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
    const username = uniqueName("np");
    const code = uniqueName("tc").toLowerCase().slice(0, 32);
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      ["/user/create", w.admin.token, { username, password: "password1", type: UserType.USER }],
      [
        "/user/tenant/create",
        sa.token,
        { code, name: "Policy", admin: { username: uniqueName("ta"), password: "password1" } },
      ],
      ["/user/password/mod", customer.token, { oldPassword: "Passw0rd1", newPassword: "password1" }],
      ["/user/password/mod", w.agent1.token, { userId: customer.id, newPassword: "password1" }],
      ["/user/password/mod", w.admin.token, { userId: customer.id, newPassword: `${customer.username}9` }],
    ];
    for (const [url, token, body] of attempts) {
      const res = await post(t, url, token, body);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: 1 });
      expect([TOO_COMMON, HAS_USERNAME]).toContain(res.body.message);
    }
    expect(await t.prisma.user.count({ where: { username } })).toBe(0);
    expect(await t.prisma.tenant.count({ where: { code } })).toBe(0);
    const after = await t.prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.tokenVersion).toBe(before.tokenVersion);

    // and a strong one goes through each of them
    expect(
      (await post(t, "/user/create", w.admin.token, { username, password: NEW_PASSWORD, type: UserType.USER })).status,
    ).toBe(200);
    const reset = await post(t, "/user/password/mod", w.agent1.token, {
      userId: customer.id,
      newPassword: NEW_PASSWORD,
    });
    expect(reset.status).toBe(200);
  });
});

describe("passwords accepted", () => {
  it.each([
    ["Chinese", "我的密码是一只爱吃鱼的小猫咪"],
    ["Cyrillic", "пароль-для-входа-42"],
    ["Greek, no digits", "κόκκινο φεγγάρι πάνω από τη θάλασσα"],
  ])("takes a %s passphrase and signs in with it", async (_script, password) => {
    const username = uniqueName("intl");
    const res = await register({ username, password });
    expect(res.body).toMatchObject({ code: 0 });
    await signIn(t.app, "customer", username, password, { "tenant-id": String(tenantId) });
  });

  it("counts characters, not UTF-16 units: four emoji are four characters, 120 rare ideographs fit", async () => {
    const short = await register({ username: uniqueName("emo"), password: "😀🐱🌙🎲" });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("field password must be at least 8 long");

    // U+2A700.. (CJK Extension C): two UTF-16 units each, 240 units for 120 characters
    const rare = Array.from({ length: 120 }, (_, i) => String.fromCodePoint(0x2a700 + ((i * 37) % 4000))).join("");
    const username = uniqueName("rare");
    const long = await register({ username, password: rare });
    expect(long.body.code).toBe(0);
    await signIn(t.app, "customer", username, rare);
    const tooLong = await register({ username: uniqueName("rare"), password: `${rare}${rare.slice(0, 18)}` });
    expect(tooLong.body.message).toBe("field password must be at most 128 long");
  });

  it("treats full-width and ASCII spellings (NFKC) as one password", async () => {
    const username = uniqueName("fw");
    const res = await register({ username, password: "Ｒｉｖｅｔ－Ｌａｎｔｅｒｎ－８２" });
    expect(res.body.code).toBe(0);
    await signIn(t.app, "customer", username, NEW_PASSWORD);
    const row = await t.prisma.user.findFirstOrThrow({ where: { username } });
    expect(await verifyPassword(row.passwordHash, "Ｒｉｖｅｔ－Ｌａｎｔｅｒｎ－８２")).toBe(true);
  });

  it("answers many checks at once, each with its own verdict (one worker thread, requests by id)", async () => {
    const owner = { username: "someone" };
    const verdicts = await Promise.all(
      ["password1", NEW_PASSWORD, "someone123", "Blue-Harbor-7319", "qwertyuiop"].map((pw) =>
        requireAcceptablePassword(pw, owner).then(
          () => "ok",
          (err: Error) => err.message,
        ),
      ),
    );
    expect(verdicts).toEqual(["password.too_common", "ok", "password.contains_username", "ok", "password.too_common"]);
  });
});
