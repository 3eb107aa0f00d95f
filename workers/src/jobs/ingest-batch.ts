// ingest-batch {batchId}: reads a file batch's numbers and materialises it (recipients, rejected numbers, the
// charge, the review decision). The work is the domain package's (@switchboard/domain/batches: the same code as
// the API's synchronous submissions); this handler only gives it the worker's database, queues and logger. Due
// batches it leaves in status 20 go to dispatch-batch, which waits for a schedule by itself (the scheduler comes
// back when due).

import type { IngestBatchJob } from "@switchboard/contracts";
import { abandonIngest, type IngestDeps, type IngestOutcome, ingestBatch as ingest } from "@switchboard/domain/batches";
import type { WorkerDeps } from "../lib/deps";

export type IngestBatchDeps = Pick<WorkerDeps, "prisma" | "queues" | "logger" | "storage">;

function ingestDeps(deps: IngestBatchDeps): IngestDeps {
  return {
    prisma: deps.prisma,
    storage: deps.storage,
    log: deps.logger,
    jobs: { dispatch: (batchId) => deps.queues.dispatchBatches([batchId.toString()]) },
  };
}

export function ingestBatch(deps: IngestBatchDeps, job: IngestBatchJob): Promise<IngestOutcome> {
  return ingest(ingestDeps(deps), job);
}

/** When the job failed for good (retries spent): the batch is refused (11 -> 13) instead of waiting forever. */
export function ingestBatchFailed(deps: IngestBatchDeps, job: IngestBatchJob): Promise<void> {
  return abandonIngest(ingestDeps(deps), job);
}
