// The demo world's simulators (the SMSC, RBM, WhatsApp Cloud API and HLR lookup the demo channels point at), as
// `npm start` runs them and as docker compose's demo profile runs them (scripts/demo-simulator.ts): their options
// are in this one place, so both starts give the same world.
import { channelSecretKey as channelSecretKeyBytes, decryptSecrets } from "@switchboard/channels";
import type { PrismaClient } from "@switchboard/db";
import {
  DEMO_HLR,
  DEMO_RBM,
  DEMO_SMSC,
  DEMO_WHATSAPP,
  demoRbmClientToken,
  demoWhatsappSecrets,
} from "@switchboard/domain/seed";

export const DEMO_SIMULATORS = ["smsc", "rbm", "hlr", "whatsapp"] as const;
export type DemoSimulator = (typeof DEMO_SIMULATORS)[number];

/** The demo channels that name their simulators' webhook URLs (a channel id) or hold their credentials. */
export interface DemoChannels {
  whatsapp: { channelId: number } | null;
  rcs: { channelId: number; serviceAccountKey: string } | null;
}

/**
 * The database's channel secrets were sealed with another CHANNEL_SECRET_KEY than this start's: the database was
 * set up by another checkout (its own .data/secrets.json) or with another key. Nothing could send through them.
 */
export class ChannelKeyMismatch extends Error {
  constructor() {
    super(
      "the database's channels were set up with another CHANNEL_SECRET_KEY (another checkout's .data/secrets.json, " +
        "or a key given before): copy that checkout's .data/secrets.json here, or give its key as CHANNEL_SECRET_KEY, " +
        "or give DATABASE_URL an empty database of this checkout's own (it is migrated and seeded)",
    );
    this.name = "ChannelKeyMismatch";
  }
}

/** The demo WhatsApp and RCS channels the seed made (null: not there), the RBM key opened with the channel key. */
export async function findDemoChannels(prisma: PrismaClient, channelSecretKey: string): Promise<DemoChannels> {
  const whatsapp = await prisma.channel.findFirst({
    where: { kind: "whatsapp", name: DEMO_WHATSAPP.name },
    select: { id: true },
  });
  const rcs = await prisma.channel.findFirst({
    where: { kind: "rcs", name: DEMO_RBM.name },
    select: { id: true, tenantId: true, secrets: true },
  });
  let rcsChannel: DemoChannels["rcs"] = null;
  if (rcs) {
    let serviceAccountKey: string | undefined;
    try {
      ({ serviceAccountKey } = decryptSecrets(channelSecretKeyBytes(channelSecretKey), rcs.tenantId, rcs.secrets));
    } catch {
      throw new ChannelKeyMismatch();
    }
    rcsChannel = { channelId: rcs.id, serviceAccountKey: serviceAccountKey ?? "" };
  }
  return { whatsapp: whatsapp ? { channelId: whatsapp.id } : null, rcs: rcsChannel };
}

export interface DemoSimulatorContext {
  channelSecretKey: string;
  /** The API as the simulators reach it: RBM and WhatsApp push their status webhooks there. */
  apiUrl: string;
  channels: DemoChannels;
  /** The file holding the demo RCS channel's service-account key (owner-only), which the RBM simulator accepts. */
  rbmKeyFile: string;
  /** Listen address: loopback for `npm start` (the default), every interface in a container. */
  host?: string;
}

/** Where each simulator listens: the demo channels' ports (packages/domain/src/seed/seed.ts). */
export const DEMO_SIMULATOR_PORTS: Record<DemoSimulator, number> = {
  smsc: DEMO_SMSC.port,
  rbm: DEMO_RBM.port,
  hlr: DEMO_HLR.port,
  whatsapp: DEMO_WHATSAPP.port,
};

/** The simulator CLI's arguments (packages/channels/src/simulators/<name>-cli.ts), null without its channel. */
export function demoSimulatorArgs(name: DemoSimulator, ctx: DemoSimulatorContext): string[] | null {
  const listen = [...(ctx.host ? ["--host", ctx.host] : []), "--port", String(DEMO_SIMULATOR_PORTS[name])];
  switch (name) {
    // The demo SMS channel's SMSC: receipts on, a little latency and a few undelivered, like a real one; a few
    // users write back (mobile-originated SMS), so replies show on the demo as they do for WhatsApp and RCS.
    case "smsc":
      return [
        ...listen,
        "--receipts",
        "on",
        "--latency-ms",
        "5",
        "--receipt-delay-ms",
        "500",
        "--mix",
        "delivered=0.97,undeliv=0.03",
        "--reply-share",
        "0.05",
      ];
    // The demo RCS channel's RBM API: a fifth of the numbers not RCS-capable (they fall back to SMS), some read.
    case "rbm":
      if (!ctx.channels.rcs) return null;
      return [
        ...listen,
        "--agent-id",
        DEMO_RBM.agentId,
        "--client-token",
        demoRbmClientToken(ctx.channelSecretKey),
        "--webhook-url",
        `${ctx.apiUrl}/webhooks/rcs/${ctx.channels.rcs.channelId}`,
        "--key-file",
        ctx.rbmKeyFile,
        "--non-capable-share",
        "0.2",
        "--delivery-delay-ms",
        "500",
        "--read-share",
        "0.6",
        "--read-delay-ms",
        "2000",
        "--reply-share",
        "0.05",
        "--rps",
        "300",
      ];
    // The demo SMS channel's HLR lookup, for screening SMS numbers (10 % unreachable, 2 % unknown, by number).
    case "hlr":
      return listen;
    // The demo WS channel's WhatsApp Cloud API: approved demo templates, statuses pushed to our webhook, some read.
    case "whatsapp": {
      if (!ctx.channels.whatsapp) return null;
      const wa = demoWhatsappSecrets(ctx.channelSecretKey);
      return [
        ...listen,
        "--webhook-url",
        `${ctx.apiUrl}/webhooks/whatsapp/${ctx.channels.whatsapp.channelId}`,
        "--access-token",
        wa.accessToken,
        "--app-secret",
        wa.appSecret,
        "--verify-token",
        wa.webhookVerifyToken,
        "--phone-number-id",
        DEMO_WHATSAPP.phoneNumberId,
        "--waba-id",
        DEMO_WHATSAPP.wabaId,
        "--mps",
        "80",
        "--read-share",
        "0.6",
        "--reply-share",
        "0.05",
        "--delivery-delay-ms",
        "500",
        "--read-delay-ms",
        "2000",
      ];
    }
  }
}
