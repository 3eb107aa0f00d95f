// "Test connection": binds or authenticates against the provider with the stored settings and reports what
// happened. The outcome is returned to the admin, never stored as the channel's status.
//
// Hosts and URLs are the admin's input, so every connection obeys the egress policy. A refusal is answered as
// a translated error, the same whatever listens there: nothing was sent, so nothing can be learnt from it.

import type { ChannelSecrets, EgressPolicy } from "@switchboard/channels";
import { probeSmpp, smppConfigSchema, smppSessionConfig } from "@switchboard/channels";
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
import { badRequest } from "../../lib/errors";
import type { PublicConfig } from "./channel-config";

/**
 * SMPP: binds one fresh session with the credentials and unbinds, without starting a live link (an SMSC that
 * allows one bind per system_id would refuse a second one).
 */
async function testSmpp(
  config: SmppChannelConfig,
  secrets: ChannelSecrets,
  egress: EgressPolicy,
): Promise<Omit<ChannelTestResult, "httpStatus"> & { egressRefused?: string }> {
  const startedAt = performance.now();
  const outcome = await probeSmpp(smppConfigSchema.parse(smppSessionConfig(config, secrets)), { egress });
  return { ...outcome, latencyMs: Math.round(performance.now() - startedAt) };
}

/** Stored settings are the contract's own output, so each kind reads its config type back. */
export async function testConnection(
  kind: ChannelKind,
  config: PublicConfig,
  secrets: ChannelSecrets,
  egress: EgressPolicy,
): Promise<ChannelTestResult> {
  const { egressRefused, ...result } = await probe(kind, config, secrets, egress);
  if (egressRefused !== undefined) throw badRequest("channel.egress_refused", { host: egressRefused });
  return { ...result, httpStatus: result.httpStatus ?? null };
}

async function probe(
  kind: ChannelKind,
  config: PublicConfig,
  secrets: ChannelSecrets,
  egress: EgressPolicy,
): Promise<Omit<ChannelTestResult, "httpStatus"> & { httpStatus?: number; egressRefused?: string }> {
  switch (kind) {
    case "smpp":
      return testSmpp(config as SmppChannelConfig, secrets, egress);
    case "whatsapp": {
      const c = config as WhatsappChannelConfig;
      return probeWhatsapp(
        {
          baseUrl: c.baseUrl,
          apiVersion: c.apiVersion,
          phoneNumberId: c.phoneNumberId,
          accessToken: secrets.accessToken ?? "",
        },
        { egress },
      );
    }
    case "rcs": {
      const c = config as RcsChannelConfig;
      return probeRcs(
        { baseUrl: c.baseUrl, tokenUrl: c.tokenUrl, serviceAccountKey: secrets.serviceAccountKey ?? "" },
        { egress },
      );
    }
    case "http": {
      const c = config as HttpChannelConfig;
      return probeHttp(
        {
          url: c.url,
          authType: c.authType,
          authUsername: c.authUsername,
          authHeader: c.authHeader,
          authSecret: secrets.authSecret,
        },
        { egress },
      );
    }
  }
}
