export type {
  OutcomeMix,
  ReceiptStat,
  SimulatorSubmit,
  SmscSimulator,
  SmscSimulatorOptions,
  SmscStats,
} from "./smsc";
export { startSmscSimulator } from "./smsc";
