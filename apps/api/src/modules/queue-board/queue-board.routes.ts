// The queue board for staff: @bull-board over the workers' BullMQ queues, mounted twice behind the staff session.
//
//   /admin/queues/view     read-only (bull-board's readOnlyMode, and every non-GET refused here too): every staff
//                          role (admin, agent, super admin) may look at queues, jobs and their errors;
//   /admin/queues/manage   the same with retry / clean / remove / pause: the super admin only;
//   /admin/queues/open     spends a one-time ticket and sets the board's cookie (board-session.ts);
//   POST /queue-board/ticket  the bearer-authenticated call that hands out the ticket.
//
// Jobs carry ids only (house style), so the board shows no number or message text. Without a valid cookie the
// board answers 401, with a role it does not serve 403; a state-changing call from another origin is refused.
import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { FastifyAdapter } from "@bull-board/fastify";
import { bullQueuePrefix, QUEUE, queueBoardTicket, STAFF_TYPES, UserType } from "@switchboard/contracts";
import { isClustered } from "@switchboard/domain/redis";
import { Queue } from "bullmq";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { principalOf, type TokenClaims } from "../../plugins/auth";
import { BOARD_COOKIE, BoardSessions, cookieValue, TICKET_TTL_SECONDS } from "./board-session";

export const BOARD_PATH = "/admin/queues";
const VIEW_PATH = `${BOARD_PATH}/view`;
const MANAGE_PATH = `${BOARD_PATH}/manage`;

/** Plain-text refusals: the board is a page in a browser tab, not an API call. */
function refuse(reply: FastifyReply, status: 401 | 403, text: string) {
  return reply.code(status).type("text/plain; charset=utf-8").header("cache-control", "no-store").send(text);
}

const SIGN_IN_AGAIN =
  "The queue board needs a fresh link: open it again from the back office (dashboard, 'Queue board').";

/** The request's own origin (scheme://host), to tell a same-origin board call from a forged cross-site one. */
function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true; // not a browser's cross-origin request (a form post always sends one)
  return origin === `${req.protocol}://${req.host}`;
}

export const queueBoardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, redis } = app.deps;
  const sessions = new BoardSessions(redis, config.REDIS_PREFIX, config.JWT_SECRET);
  // On the API's shared Redis connection (not closed with the queues); its trouble is the outage's line.
  const queues = Object.values(QUEUE).map((name) => {
    const queue = new Queue(name, {
      connection: redis,
      prefix: bullQueuePrefix(config.REDIS_PREFIX, name, isClustered(redis)),
    });
    queue.on("error", (err) => {
      if (!app.outages.report(err)) app.log.warn({ err, queue: name }, "queue board: queue error");
    });
    return queue;
  });
  app.addHook("onClose", async () => {
    await Promise.all(queues.map((q) => q.close()));
  });

  app.post(
    "/queue-board/ticket",
    {
      preHandler: [app.authenticate, app.requireRoles(...STAFF_TYPES)],
      schema: {
        tags: ["queue-board"],
        security: [{ bearer: [] }],
        summary:
          "A one-time link (60 s) to the queue board for the signed-in staff member: read-only for admins and " +
          "agents, with retry / clean / remove for the super admin",
        response: { 200: queueBoardTicket },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const claims = req.user as TokenClaims;
      const ticket = await sessions.issueTicket({
        sub: claims.sub,
        jti: claims.jti,
        ver: claims.ver,
        tid: claims.tid,
        typ: p.type,
        exp: claims.exp,
      });
      return {
        path: `${BOARD_PATH}/open?ticket=${ticket}`,
        readOnly: p.type !== UserType.SUPER_ADMIN,
        expiresInSeconds: TICKET_TTL_SECONDS,
      };
    },
  );

  app.get(
    `${BOARD_PATH}/open`,
    { config: { envelope: false }, schema: { hide: true, querystring: z.object({ ticket: z.string().max(100) }) } },
    async (req, reply) => {
      const claims = await sessions.spendTicket(req.query.ticket);
      const user = claims && (await app.liveSession(claims));
      if (!claims || !user) return refuse(reply, 401, SIGN_IN_AGAIN);
      if (!STAFF_TYPES.includes(user.type as UserType)) return refuse(reply, 403, "Staff only.");
      const maxAge = claims.exp - Math.floor(Date.now() / 1000);
      const secure = req.protocol === "https" ? "; Secure" : "";
      reply.header(
        "set-cookie",
        `${BOARD_COOKIE}=${sessions.sign(claims)}; Path=${BOARD_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
      );
      // Off the address bar (and history) at once: the ticket is spent anyway.
      return reply.redirect(user.type === UserType.SUPER_ADMIN ? `${MANAGE_PATH}/` : `${VIEW_PATH}/`, 303);
    },
  );

  /** A board behind the cookie, for these roles; read-only: no state-changing method at all. */
  const mount = async (path: string, roles: readonly UserType[], readOnly: boolean) => {
    const adapter = new FastifyAdapter();
    adapter.setBasePath(path);
    createBullBoard({
      queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: readOnly })),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: readOnly ? "Switchboard queues (read-only)" : "Switchboard queues" } },
    });
    await app.register(async (board: FastifyInstance) => {
      board.addHook("onRequest", async (req, reply) => {
        const claims = sessions.verify(cookieValue(req.headers.cookie, BOARD_COOKIE));
        const user = claims && (await app.liveSession(claims));
        if (!user) return refuse(reply, 401, SIGN_IN_AGAIN);
        if (!roles.includes(user.type as UserType)) return refuse(reply, 403, "This board is for the super admin.");
        if (req.method !== "GET" && req.method !== "HEAD") {
          if (readOnly) return refuse(reply, 403, "This board is read-only.");
          if (!sameOrigin(req)) return refuse(reply, 403, "Cross-origin request refused.");
        }
      });
      await board.register(adapter.registerPlugin(), { prefix: path });
    });
  };
  await mount(VIEW_PATH, STAFF_TYPES, true);
  await mount(MANAGE_PATH, [UserType.SUPER_ADMIN], false);
};
