// "Test connection": binds or authenticates against the provider with the stored settings and reports what
// happened. The outcome is returned to the admin, never stored as the channel's status.

import type { ChannelSecrets } from "@switchboard/channels";
import { probeSmpp, smppConfigSchema } from "@switchboard/channels";
import { probeHttp } from "@switchboard/channels/http";
import { probeRcs } from "@switchboard/channels/rcs";
import { probeWhatsapp } from "@switchboard/channels/whatsapp";
import type {
  ChannelKind,
  ChannelTestResult,
  HttpChannelConfig,
  RcsChannelConfig,
  SmppChannelConfig,
  WhatsappChannelConfig,
} from "@switchboard/contracts";
import type { PublicConfig } from "./channel-config";

/**
 * SMPP: binds one fresh session with the credentials and unbinds, without starting a live link (an SMSC that
 * allows one bind per system_id would refuse a second one).
 */
async function testSmpp(config: SmppChannelConfig, secrets: ChannelSecrets): Promise<ChannelTestResult> {
  const startedAt = performance.now();
  const outcome = await probeSmpp(
    smppConfigSchema.parse({
      host: config.host,
      port: config.port,
      systemId: config.systemId,
      password: secrets.password ?? "",
      systemType: config.systemType,
      sourceTon: config.sourceTon,
      sourceNpi: config.sourceNpi,
      destTon: config.destTon,
      destNpi: config.destNpi,
      bindMode: config.bindMode,
      windowSize: config.windowSize,
      enquireLinkIntervalMs: config.enquireLinkIntervalMs,
    }),
  );
  return { ...outcome, latencyMs: Math.round(performance.now() - startedAt) };
}

/** Stored settings are the contract's own output, so each kind reads its config type back. */
export async function testConnection(
  kind: ChannelKind,
  config: PublicConfig,
  secrets: ChannelSecrets,
): Promise<ChannelTestResult> {
  switch (kind) {
    case "smpp":
      return testSmpp(config as SmppChannelConfig, secrets);
    case "whatsapp": {
      const c = config as WhatsappChannelConfig;
      return probeWhatsapp({
        baseUrl: c.baseUrl,
        apiVersion: c.apiVersion,
        phoneNumberId: c.phoneNumberId,
        accessToken: secrets.accessToken ?? "",
      });
    }
    case "rcs": {
      const c = config as RcsChannelConfig;
      return probeRcs({ baseUrl: c.baseUrl, tokenUrl: c.tokenUrl, serviceAccountKey: secrets.serviceAccountKey ?? "" });
    }
    case "http": {
      const c = config as HttpChannelConfig;
      return probeHttp({
        url: c.url,
        authType: c.authType,
        authUsername: c.authUsername,
        authHeader: c.authHeader,
        authSecret: secrets.authSecret,
      });
    }
  }
}
