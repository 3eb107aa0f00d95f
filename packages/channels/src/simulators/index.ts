export type { HlrSimulator, HlrSimulatorOptions, HlrSimulatorStats } from "./hlr";
export { startHlrSimulator } from "./hlr";
export type {
  RbmMessageState,
  RbmSimulator,
  RbmSimulatorOptions,
  RbmSimulatorStats,
  RbmUserMessageInput,
  ReceivedAgentMessage,
} from "./rbm";
export { startRbmSimulator, validateAgentMessage } from "./rbm";
export type {
  OutcomeMix,
  ReceiptStat,
  SimulatorSubmit,
  SmscSimulator,
  SmscSimulatorOptions,
  SmscStats,
} from "./smsc";
export { startSmscSimulator } from "./smsc";
export type {
  InboundInput,
  ReceivedSend,
  TemplateComponentDefinition,
  WhatsappSimulator,
  WhatsappSimulatorOptions,
  WhatsappSimulatorStats,
  WhatsappTemplateDefinition,
} from "./whatsapp";
export { DEMO_TEMPLATES, startWhatsappSimulator, WHATSAPP_ERROR_CATALOG } from "./whatsapp";
