// SMPP mobile-originated messages (users writing back by SMS) are stored in channel_events like the HTTP
// channels' webhook bodies, then applied by the same loop (jobs/channel-events.ts: matched to the last message
// sent to the number, opt-out keywords, the `inbound` webhook). The adapter acknowledges the MO to the SMSC only
// once this resolves, so a stored row is what makes it safe to say yes. Replies are a trickle next to receipts:
// one statement each (the API's webhook intake groups its writes because webhooks come by the thousand).
import { type InboundMessage, storedMoBody } from "@switchboard/channels";
import { channelEventsWakeup } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";

interface Publisher {
  publish(channel: string, message: string): Promise<unknown>;
}

export function moIntake(prisma: PrismaClient, redis: Publisher, redisPrefix: string) {
  const wakeup = channelEventsWakeup(redisPrefix);
  return async (channelId: number, message: InboundMessage): Promise<void> => {
    await prisma.$executeRaw`
      INSERT INTO channel_events ("channelId", body) VALUES (${channelId}, ${storedMoBody([message])})`;
    // A lost wake-up only delays the message until the loop's next poll.
    redis.publish(wakeup, "1").catch(() => undefined);
  };
}
