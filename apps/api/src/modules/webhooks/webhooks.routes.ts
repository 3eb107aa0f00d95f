// Provider webhooks: /webhooks/{kind}/{channelId} for the HTTP channel kinds (RCS Business Messaging pushes,
// WhatsApp Cloud API subscriptions). Each call is verified with the channel's own secret (a bad or missing
// signature: 401 and nothing stored), stored raw, and only then acknowledged; the workers apply it
// (workers/src/jobs/channel-events.ts). The answer is plain HTTP, as providers expect, not the envelope.
import { channelSecretKey, webhookProvider } from "@switchboard/channels";
import { channelEventsWakeup, id } from "@switchboard/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { EventIntake } from "./event-intake";
import { WebhookChannels } from "./webhook-channels";

/** Channel kinds whose events come by webhook. */
const WEBHOOK_KINDS = ["rcs", "whatsapp"] as const;
/** A provider's webhook body: WhatsApp batches many statuses per call, well under this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const params = z.object({ channelId: id() });

function headerMap(req: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k] = Array.isArray(v) ? v[0] : v;
  return out;
}

export async function webhookRoutes(app: FastifyInstance) {
  const { config, prisma, redis } = app.deps;
  const intake = new EventIntake(prisma, redis, channelEventsWakeup(config.REDIS_PREFIX));
  const channels = new WebhookChannels(prisma, channelSecretKey(config.CHANNEL_SECRET_KEY));
  app.addHook("onClose", () => intake.close());

  // Signatures cover the body's exact bytes: these routes read it raw, whatever its content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );

  for (const kind of WEBHOOK_KINDS) {
    // Intake per provider and outcome (the metrics plugin's counter), children bound once.
    const outcome = {
      accepted: app.metrics.webhookEvents.labels(kind, "accepted"),
      rejected: app.metrics.webhookEvents.labels(kind, "rejected"),
      unknownChannel: app.metrics.webhookEvents.labels(kind, "unknown_channel"),
      notStored: app.metrics.webhookEvents.labels(kind, "not_stored"),
      challenge: app.metrics.webhookEvents.labels(kind, "challenge"),
    };
    // From 0: a fresh process's first calls then show in rate() and increase().
    for (const counter of Object.values(outcome)) counter.inc(0);
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const parsed = params.safeParse(req.params);
      const channel = parsed.success ? await channels.get(parsed.data.channelId) : null;
      const provider = webhookProvider(kind);
      // Not a channel id at all: the same answer as an unknown channel.
      if (!channel || channel.kind !== kind || !provider) {
        outcome.unknownChannel.inc();
        return reply.code(404).send();
      }
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const verdict = provider.verify(
        {
          method: req.method,
          headers: headerMap(req),
          query: req.query as Record<string, string | undefined>,
          rawBody,
        },
        channel.secrets,
      );
      if (verdict.kind === "challenge") {
        outcome.challenge.inc();
        return reply.code(200).type("text/plain").send(verdict.body);
      }
      if (verdict.kind === "refuse") {
        outcome.rejected.inc();
        return reply.code(verdict.status).send();
      }
      try {
        await intake.store(channel.id, rawBody.toString("utf8"));
      } catch (err) {
        // Not stored: the provider must send it again, so it must not read this as an acknowledgement.
        outcome.notStored.inc();
        req.log.error({ err, channelId: channel.id }, "webhook event not stored");
        return reply.code(503).send();
      }
      outcome.accepted.inc();
      return reply.code(200).send();
    };
    app.route({
      method: ["GET", "POST"],
      url: `/webhooks/${kind}/:channelId`,
      config: { envelope: false },
      schema: { hide: true },
      handler,
    });
  }
}
