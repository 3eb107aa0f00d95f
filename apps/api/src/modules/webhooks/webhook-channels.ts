// The channel a webhook call names, with its credentials opened, kept a few seconds per API process: providers
// call thousands of times a second at full traffic, and a settings change (a rotated app secret) takes effect
// within the cache's lifetime.
import { type ChannelSecrets, decryptSecrets } from "@switchboard/channels";
import type { PrismaClient } from "@switchboard/db";

export interface WebhookChannel {
  id: number;
  kind: string;
  secrets: ChannelSecrets;
}

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

export class WebhookChannels {
  private readonly cache = new Map<number, { at: number; channel: WebhookChannel | null }>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly secretKey: Buffer,
  ) {}

  /** The channel, or null when there is none with that id (or its credentials cannot be opened). */
  async get(id: number): Promise<WebhookChannel | null> {
    const hit = this.cache.get(id);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.channel;
    const row = await this.prisma.channel.findUnique({
      where: { id },
      select: { id: true, kind: true, tenantId: true, secrets: true },
    });
    let channel: WebhookChannel | null = null;
    if (row) {
      try {
        channel = { id: row.id, kind: row.kind, secrets: decryptSecrets(this.secretKey, row.tenantId, row.secrets) };
      } catch {
        channel = null; // sealed with another key: nothing can be verified, so nothing is accepted
      }
    }
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(id, { at: Date.now(), channel });
    return channel;
  }
}
