// The workers as a library: what tests, scripts and benchmarks start them from.
export { type CallbackContext, type CallbackResult, deliverCallback } from "./jobs/callback";
export { type ReportOutcome, recordDeliveryReports } from "./jobs/delivery-report";
export { dispatchBatch } from "./jobs/dispatch-batch";
export { type Attempt, dispatchChunk } from "./jobs/dispatch-chunk";
export { failSendingBatch, finishBatch } from "./jobs/finish-batch";
export { scheduleTick } from "./jobs/schedule";
export {
  type CreateDepsOptions,
  closeWorkerDeps,
  createWorkerDeps,
  DEFAULT_TUNING,
  type Tuning,
  type WorkerConfig,
  type WorkerDeps,
} from "./lib/deps";
export { DEFAULT_CONCURRENCY, type RunningWorkers, type StartOptions, startWorkers } from "./workers";
