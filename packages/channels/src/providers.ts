// One registry of the channel kinds that can send: a channel row's stored settings and opened credentials in,
// the kind's adapter out (as Novu's providers: one folder per provider behind one contract). The workers' adapter
// pool is the only caller; adding a kind means a folder and an entry here.
import type { SmppChannelConfig } from "@switchboard/contracts";
import type { Dispatcher } from "undici";
import type { ChannelAdapter, Logger } from "./adapter";
import type { EgressPolicy } from "./egress";
import { createHlrLookup } from "./hlr/lookup";
import { defaultDispatcher } from "./http/call";
import { createRcsAdapter } from "./rcs/adapter";
import type { ChannelSecrets } from "./secrets";
import { createSmppAdapter } from "./smpp/adapter";
import type { SmppConfigInput } from "./smpp/config";
import { createWhatsappAdapter } from "./whatsapp/adapter";

export interface ProviderDeps {
  logger: Logger;
  /** Every address a channel names is a tenant admin's input. */
  egress: EgressPolicy;
  /** HTTP providers' client (keep-alive, through the egress policy); shared by every HTTP channel of a process. */
  dispatcher?: Dispatcher;
  /** SMPP timings that are not channel settings (submit timeout, reconnect backoff). */
  smpp?: Partial<SmppConfigInput>;
  /** An SMPP link bound again after a drop (the workers' reconnect counter). */
  onSmppReconnect?: () => void;
  /** An SMPP channel's message ids started again (its SMSC restarted or its counter wrapped). */
  onSmppIdsRestarted?: () => void;
}

export interface ProviderAdapter {
  adapter: ChannelAdapter;
  /** Sends worth keeping in flight at once: the SMPP window, an HTTP provider's connection share. */
  window: number;
}

type Stored = Record<string, unknown>;
type Factory = (config: Stored, secrets: ChannelSecrets, deps: ProviderDeps) => ProviderAdapter;

/** In-flight requests per HTTP channel and process: what keep-alive connections pipeline without queueing. */
const HTTP_WINDOW = 64;

/** An SMPP channel's stored settings and password as the SMPP session's settings (live link and test alike). */
export function smppSessionConfig(config: SmppChannelConfig, secrets: ChannelSecrets): SmppConfigInput {
  return {
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
    receiverBinds: config.receiverBinds,
    windowSize: config.windowSize,
    enquireLinkIntervalMs: config.enquireLinkIntervalMs,
  };
}

const FACTORIES: Record<string, Factory> = {
  smpp: (stored, secrets, deps) => {
    const config = stored as unknown as SmppChannelConfig;
    const adapter = createSmppAdapter(
      { ...smppSessionConfig(config, secrets), ...deps.smpp },
      {
        logger: deps.logger,
        egress: deps.egress,
        ...(deps.onSmppReconnect ? { onReconnect: deps.onSmppReconnect } : {}),
        ...(deps.onSmppIdsRestarted ? { onIdsRestarted: deps.onSmppIdsRestarted } : {}),
      },
    );
    // Screening an SMPP channel is an HLR lookup over HTTP, where the channel names one.
    if (config.lookupUrl) {
      const lookup = createHlrLookup(
        { lookupUrl: config.lookupUrl, lookupToken: secrets.lookupToken },
        deps.dispatcher ?? defaultDispatcher(deps.egress, 4),
      );
      adapter.checkReachability = (numbers) => lookup.checkReachability(numbers);
    }
    return { adapter, window: config.windowSize ?? 50 };
  },
  rcs: (config, secrets, deps) => ({
    adapter: createRcsAdapter(
      { ...(config as { agentId: string }), serviceAccountKey: secrets.serviceAccountKey ?? "" },
      { logger: deps.logger, egress: deps.egress, ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}) },
    ),
    window: HTTP_WINDOW,
  }),
  whatsapp: (config, secrets, deps) => ({
    adapter: createWhatsappAdapter(
      { ...(config as { phoneNumberId: string }), accessToken: secrets.accessToken ?? "" },
      { logger: deps.logger, egress: deps.egress, ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}) },
    ),
    window: HTTP_WINDOW,
  }),
};

/** Whether channels of this kind can send through the workers. */
export function canSend(kind: string): boolean {
  return kind in FACTORIES;
}

/** The adapter of a channel; throws when its settings cannot make one (the caller fails the channel's batches). */
export function createChannelAdapter(
  kind: string,
  config: Stored,
  secrets: ChannelSecrets,
  deps: ProviderDeps,
): ProviderAdapter {
  const factory = FACTORIES[kind];
  if (!factory) throw new Error(`no adapter for channel kind ${kind}`);
  return factory(config, secrets, deps);
}
