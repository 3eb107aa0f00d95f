// ingest-batch {batchId}: reads a file batch's numbers and materialises it (recipients, rejected numbers, the
// charge, the review decision). The work is the domain package's (@switchboard/domain/batches: the same code as
// the API's synchronous submissions); this handler only gives it the worker's database, queues and logger. Due
// batches it leaves in status 20 go to dispatch-batch, which waits for a schedule by itself (the scheduler comes
// back when due).

import { BatchStatus, type IngestBatchJob } from "@switchboard/contracts";
import { abandonIngest, type IngestDeps, type IngestOutcome, ingestBatch as ingest } from "@switchboard/domain/batches";
import type { WorkerDeps } from "../lib/deps";
import { enqueueBatchStatusCallbacks } from "./callback";

export type IngestBatchDeps = Pick<WorkerDeps, "prisma" | "queues" | "logger" | "storage">;

function ingestDeps(deps: IngestBatchDeps): IngestDeps {
  return {
    prisma: deps.prisma,
    storage: deps.storage,
    log: deps.logger,
    jobs: { dispatch: (batchId) => deps.queues.dispatchBatches([batchId.toString()]) },
  };
}

export async function ingestBatch(deps: IngestBatchDeps, job: IngestBatchJob): Promise<IngestOutcome> {
  const outcome = await ingest(ingestDeps(deps), job);
  if (outcome === "refused") await tellRefused(deps, job.batchId);
  return outcome;
}

/** When the job failed for good (retries spent): the batch is refused (11 -> 13) instead of waiting forever. */
export async function ingestBatchFailed(deps: IngestBatchDeps, job: IngestBatchJob): Promise<void> {
  await abandonIngest(ingestDeps(deps), job);
  await tellRefused(deps, job.batchId);
}

/**
 * A file refused while it was read (11 -> 13) is told as a rejection (batch_status review_rejected, the file's
 * reason), once the refusal committed. Read back rather than assumed: the refusal is a conditional update that a
 * cancel may have beaten (29, told by the API). Its time is the batch's finishedAt, so telling it twice is one job.
 */
async function tellRefused(deps: IngestBatchDeps, batchId: string): Promise<void> {
  const batch = await deps.prisma.messageBatch.findUnique({
    where: { id: BigInt(batchId) },
    select: { status: true, finishedAt: true },
  });
  if (batch?.status !== BatchStatus.REVIEW_REJECTED || !batch.finishedAt) return;
  await enqueueBatchStatusCallbacks(deps, [
    { batchId: BigInt(batchId), from: BatchStatus.UNDER_REVIEW, to: BatchStatus.REVIEW_REJECTED, at: batch.finishedAt },
  ]);
}
