// The queue board: a one-time ticket for staff (customers 403), spent once for a cookie scoped to the board;
// admins and agents see the read-only board and can change nothing; the super admin's board retries, cleans and
// removes; a signed-out session's cookie opens nothing; the cookie is no session token elsewhere.
import { bullPrefix, QUEUE, UserType } from "@switchboard/contracts";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, makeAccount, makeWorld, post, superAdminToken, type World } from "./accounts";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let world: World;
let superAdmin: { id: number; token: string };
let queue: Queue;

beforeAll(async () => {
  t = await createTestApp();
  world = await makeWorld(t);
  superAdmin = await superAdminToken(t);
  queue = new Queue(QUEUE.callback, { connection: t.redis, prefix: bullPrefix(t.config.REDIS_PREFIX) });
});

afterAll(async () => {
  await queue?.close();
  await t.close();
});

interface Ticket {
  path: string;
  readOnly: boolean;
  expiresInSeconds: number;
}

async function ticket(token: string) {
  return post<Ticket>(t, "/queue-board/ticket", token, undefined);
}

/** Opens the board as a browser would: spends the ticket, keeps the cookie, follows the redirect's path. */
async function openBoard(token: string) {
  const res = await ticket(token);
  expect(res.body.code).toBe(0);
  const opened = await t.app.inject({ method: "GET", url: res.body.data.path });
  expect(opened.statusCode).toBe(303);
  const setCookie = String(opened.headers["set-cookie"]);
  expect(setCookie).toMatch(/^sb_queue_board=[^;]+; Path=\/admin\/queues; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
  const cookie = setCookie.split(";")[0] as string;
  return { cookie, location: String(opened.headers.location), ticketPath: res.body.data.path, ticket: res.body.data };
}

const board = (method: "GET" | "PUT", url: string, cookie?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(cookie ? { cookie } : {}), ...headers } });

describe("queue board", () => {
  it("gives customers no ticket, and no board without the cookie", async () => {
    const refused = await ticket(world.customer1.token);
    expect(refused.status).toBe(403);
    expect((await board("GET", "/admin/queues/view/")).statusCode).toBe(401);
    expect((await board("GET", "/admin/queues/manage/api/queues")).statusCode).toBe(401);
    expect((await board("GET", "/admin/queues/view/", "sb_queue_board=forged.value")).statusCode).toBe(401);
  });

  it("lets an admin and an agent look, read-only: no action passes, the super admin's board is closed", async () => {
    for (const staff of [world.admin, world.agent1] as Account[]) {
      const { cookie, location, ticket: answer } = await openBoard(staff.token);
      expect(answer.readOnly).toBe(true);
      expect(location).toBe("/admin/queues/view/");
      const page = await board("GET", location, cookie);
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toMatch(/text\/html/);
      const queues = await board("GET", "/admin/queues/view/api/queues?activeQueue=callback&status=latest", cookie);
      expect(queues.statusCode).toBe(200);
      const names = (queues.json() as { queues: Array<{ name: string; readOnlyMode: boolean }> }).queues;
      expect(names.map((q) => q.name).sort()).toEqual(Object.values(QUEUE).sort());
      expect(names.every((q) => q.readOnlyMode)).toBe(true);
      expect((await board("PUT", "/admin/queues/view/api/queues/callback/pause", cookie)).statusCode).toBe(403);
      expect((await board("GET", "/admin/queues/manage/api/queues", cookie)).statusCode).toBe(403);
      expect((await board("PUT", "/admin/queues/manage/api/queues/callback/pause", cookie)).statusCode).toBe(403);
    }
    expect(await queue.isPaused()).toBe(false);
  });

  it("lets the super admin act: a job removed from its board is gone", async () => {
    const job = await queue.add("delivery_report", { userId: 1, event: "delivery_report" }, { delay: 3_600_000 });
    const { cookie, location, ticket: answer } = await openBoard(superAdmin.token);
    expect(answer.readOnly).toBe(false);
    expect(location).toBe("/admin/queues/manage/");
    const queues = await board("GET", "/admin/queues/manage/api/queues?activeQueue=callback&status=delayed", cookie);
    expect(queues.statusCode).toBe(200);
    const callback = (queues.json() as { queues: Array<{ name: string; readOnlyMode: boolean }> }).queues.find(
      (q) => q.name === QUEUE.callback,
    );
    expect(callback?.readOnlyMode).toBe(false);
    // a state-changing call from another site's page is refused, whatever cookie the browser attached
    const forged = await board("PUT", `/admin/queues/manage/api/queues/callback/${job.id}/clean`, cookie, {
      origin: "https://evil.example",
    });
    expect(forged.statusCode).toBe(403);
    expect(await queue.getJob(job.id as string)).toBeDefined();
    const cleaned = await board("PUT", `/admin/queues/manage/api/queues/callback/${job.id}/clean`, cookie);
    expect(cleaned.statusCode).toBe(204);
    expect(await queue.getJob(job.id as string)).toBeUndefined();
  });

  it("spends a ticket once, ends with the session, and its cookie is no session token", async () => {
    const { cookie, ticketPath } = await openBoard(world.admin.token);
    // the same link again: spent
    expect((await t.app.inject({ method: "GET", url: ticketPath })).statusCode).toBe(401);
    // the cookie's token is refused as a bearer token by the rest of the API
    const asBearer = await t.app.inject({
      method: "GET",
      url: "/dashboard/backend",
      headers: { authorization: `Bearer ${cookie.slice("sb_queue_board=".length)}` },
    });
    expect(asBearer.statusCode).toBe(401);
    // signing out ends the board too
    const other = await makeAccount(t, UserType.ADMIN, world.tenantId);
    const opened = await openBoard(other.token);
    expect((await board("GET", "/admin/queues/view/api/queues", opened.cookie)).statusCode).toBe(200);
    expect((await post(t, "/auth/logout", other.token, undefined)).body.code).toBe(0);
    expect((await board("GET", "/admin/queues/view/api/queues", opened.cookie)).statusCode).toBe(401);
  });
});
