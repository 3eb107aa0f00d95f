// GET /l/:code, the short links of tracked links (docs/batches.md, "Tracked links"): public (the recipient has no
// session), rate-limited per client address, a 302 to the link's stored target with the click recorded, and for
// any code that is not one of ours a plain 404 page (never a redirect).
import { LINK_CODE_LENGTH } from "@switchboard/contracts/links";
import { linkSettings } from "@switchboard/domain/links";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { followLink } from "./links.service";

/** Clicks a client address may make a minute: far above a person's, far below what guessing codes would need. */
const CLICKS_PER_MINUTE = 120;

const NOT_FOUND_PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
  "<title>404</title></head><body><p>链接无效或已失效。</p><p>This link is not valid.</p></body></html>";

export async function linkRoutes(app: FastifyInstance) {
  const { prisma, config } = app.deps;
  const settings = linkSettings(config);
  app.get(
    "/l/:code",
    {
      config: { envelope: false, rateLimit: { max: CLICKS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags: ["links"],
        summary: "A tracked link: redirect to its target, the click recorded",
        description:
          "Public: the short link a recipient got in a message (`{{link:...}}` in the batch's content). Answers " +
          "302 with Location the link's target, fixed when the batch was submitted, and records the click " +
          "(recipient, link, time; no IP address). A code that is not one of ours answers 404 (a plain page). " +
          `Rate-limited per client address (${CLICKS_PER_MINUTE} a minute, then 429).`,
        security: [],
        params: z.object({ code: z.string().max(64) }),
      },
    },
    async (req, reply) => {
      const { code } = req.params as { code: string };
      const target =
        code.length === LINK_CODE_LENGTH ? await followLink(prisma, settings, code, req.headers["user-agent"]) : null;
      // Shared caches must not keep either answer: a click is counted each time it reaches us.
      reply.header("cache-control", "no-store");
      if (target === null) return reply.code(404).type("text/html; charset=utf-8").send(NOT_FOUND_PAGE);
      return reply.redirect(target, 302);
    },
  );
}
