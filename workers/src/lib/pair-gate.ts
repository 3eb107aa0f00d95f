// WhatsApp's pair rate limit: at most one message per 6 s from a business number to the same user (WhatsApp
// answers 131056 beyond it, a wasted call and a retry). Held across every worker process before a message is
// handed to the channel: one Redis key per (channel, user) that lives for the interval, set only if absent. A
// message that finds the key waits for what is left of it (the key's remaining life), then tries again.
//
// The key names the user by a hash of the number: Redis holds no phone numbers (house rule for queues and logs).
import { createHash } from "node:crypto";
import type { RedisConnection } from "@switchboard/domain/redis";

export class PairGate {
  constructor(
    private readonly redis: RedisConnection,
    private readonly redisPrefix: string,
    /** Meta's 6,000 ms plus a margin for the time between this check and the provider receiving the message. */
    private readonly intervalMs: number,
  ) {}

  private key(channelId: number, phone: string): string {
    const user = createHash("sha256").update(phone).digest("base64url").slice(0, 22);
    return `${this.redisPrefix}pair:${channelId}:${user}`;
  }

  /** 0 when the message may go now (the interval starts), else how many ms to wait before trying again. */
  async tryAcquire(channelId: number, phone: string): Promise<number> {
    const key = this.key(channelId, phone);
    const set = await this.redis.set(key, "1", "PX", this.intervalMs, "NX");
    if (set === "OK") return 0;
    const left = await this.redis.pttl(key);
    // Expired between the two calls (-2), or no expiry (-1, never set so): try again at once.
    return left > 0 ? left : 1;
  }
}
