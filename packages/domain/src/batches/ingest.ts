// The ingest of a file batch (mode 3), run by the workers' ingest-batch job: reads the stored file and sorts its
// numbers while they are written, materialising the batch (recipients, rejected numbers, charge, review
// decision) with the same function as the synchronous modes. While it runs, ingestedCount shows how many of
// totalCount are written.
//
// Outcomes:
//   - done: status 11 (review needed) or 20 (dispatch enqueued, delayed until the schedule); the file removed;
//   - the batch can never be made (no valid number, balance short, product paused, authentication lapsed, file
//     refused by the reader - empty, no number column, too many numbers, a bad XLSX... - or missing): 11 -> 13
//     with the reason (a message key, translated when read), nothing charged;
//   - cancelled or rejected meanwhile: nothing written, the file removed;
//   - anything else (database or Redis down) throws, and the job is retried: nothing was written.
// Running it twice is harmless: a batch whose file was already read is left alone.
import { BatchStatus, encodeBatchReason } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { AppError } from "../errors";
import { type FileStorage, isMissing, type LocalFile } from "../storage";
import type { BatchJobs } from "./batch-jobs";
import { storedContent } from "./batch-row";
import { assertMaySubmit, loadCustomer, loadTenantRules, numberReading } from "./context";
import { BatchGoneError, type BatchSpec, materializeBatch } from "./materialize";
import { type ColumnRequest, type OnNumber, readNumberFile } from "./number-file";
import { NumberSorter } from "./number-sorter";
import { contentVariables, RowFilling } from "./personalise";

export interface IngestDeps {
  prisma: PrismaClient;
  /** Where the API stored the file (config.STORAGE: UPLOAD_DIR or the bucket). */
  storage: FileStorage;
  jobs: Pick<BatchJobs, "dispatch">;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export type IngestOutcome = "materialized" | "refused" | "gone" | "not_pending";

/** How often (in numbers written) progress is saved while the transaction runs. */
const PROGRESS_EVERY = 10_000;

export async function ingestBatch(deps: IngestDeps, job: { batchId: string }): Promise<IngestOutcome> {
  const batchId = BigInt(job.batchId);
  const { prisma } = deps;
  const batch = await prisma.messageBatch.findUnique({ where: { id: batchId } });
  if (!batch || batch.status !== BatchStatus.UNDER_REVIEW || batch.filePath === null) return "not_pending";
  const filePath = batch.filePath;

  const customer = await loadCustomer(prisma, batch.userId);
  // The file is read once or twice (countFile): one local copy serves both when the storage needs one (S3).
  const file = localCopy(deps.storage, filePath);
  try {
    assertMaySubmit(customer, new Date());
    // Counted beside the ingest, not before it (that was a whole read, ~0.4 s a million lines, before the first
    // write): the ingest waits for the count before it commits, so a file the count refuses commits nothing.
    const counting =
      batch.totalCount === 0
        ? countFile(deps, batchId, file, contentVariables(batch.taskType, storedContent(batch.content)))
        : null;
    // Its failure is the ingest's (awaited in read below, or the ingest failed first for the same reason).
    counting?.catch(() => undefined);
    const rules = await loadTenantRules(prisma, customer.tenantId);
    const content = storedContent(batch.content);
    // A personalised batch: each number comes with its row's values of the columns the content uses.
    const variables = contentVariables(batch.taskType, content);
    const filling = variables.length > 0 ? new RowFilling(content, variables) : null;
    const sorted = new NumberSorter(numberReading({ customer, rules }), false, filling);
    const spec: BatchSpec = {
      productId: batch.productId,
      productCode: batch.productCode,
      taskType: batch.taskType,
      submitMode: batch.submitMode,
      source: batch.source,
      content,
      units: batch.segments,
      scheduledAt: batch.scheduledAt,
      idempotencyKey: batch.idempotencyKey,
    };
    let saved = 0;
    // Progress goes out on its own connection, one write at a time, and is never waited for: the inserts must
    // not stall behind it (the final counts are written with the batch anyway).
    let saving: Promise<unknown> | null = null;
    const made = await materializeBatch(prisma, {
      customer,
      rules,
      target: { kind: "ingest", batchId, spec },
      sorted,
      read: async (added) => {
        await readFile(
          file,
          (raw, values) => {
            sorted.add(raw, values);
            added();
          },
          { variables },
        );
        await counting;
      },
      onProgress: async (written) => {
        if (saving !== null || (written - saved < PROGRESS_EVERY && written < sorted.total)) return;
        saved = written;
        saving = prisma.messageBatch
          .updateMany({ where: { id: batchId, filePath: { not: null } }, data: { ingestedCount: written } })
          .catch((err: unknown) => deps.log.warn({ err, batchId: job.batchId }, "ingest progress not saved"))
          .finally(() => {
            saving = null;
          });
      },
    });
    await file.release();
    await removeFile(deps, filePath);
    deps.log.info({ batchId: job.batchId, status: made.status }, "batch file ingested");
    if (made.status === BatchStatus.PENDING_SEND) await enqueueDispatch(deps, batchId, batch.scheduledAt);
    return "materialized";
  } catch (err) {
    await file.release();
    if (err instanceof BatchGoneError) {
      await removeFile(deps, filePath);
      return "gone";
    }
    if (err instanceof AppError && err.status < 500) {
      await refuse(deps, batchId, err);
      await removeFile(deps, filePath);
      return "refused";
    }
    throw err;
  }
}

/** The stored file as a local path, fetched at the first read and kept until release (which is safe to repeat). */
function localCopy(storage: FileStorage, key: string) {
  let held: Promise<LocalFile> | null = null;
  return {
    path: async () => {
      held ??= storage.localFile(key);
      return (await held).path;
    },
    release: async () => {
      const was = held;
      held = null;
      if (was) await was.then((f) => f.release()).catch(() => {});
    },
  };
}

type FileCopy = ReturnType<typeof localCopy>;

async function readFile(file: FileCopy, onNumber: OnNumber, columns: ColumnRequest = {}): Promise<number> {
  try {
    return await readNumberFile(await file.path(), onNumber, undefined, columns);
  } catch (err) {
    if (isMissing(err)) throw new AppError(409, "batch.ingest_file_missing");
    throw err;
  }
}

/**
 * A file larger than the upload request reads (number-file.ts, REQUEST_READ_BYTES) arrives uncounted
 * (totalCount 0): it is read once more here, beside the ingest, so the batch shows its totalCount (the base of
 * its progress) early while its numbers are written, and a file refused as a whole (no number column, no number,
 * too many, an XLSX bound) is refused with nothing committed. The price is one more read: about 0.4 s per million
 * text lines, about as long as the parse itself for an XLSX sheet, on the process's CPU while the database
 * writes.
 */
async function countFile(
  deps: IngestDeps,
  batchId: bigint,
  file: FileCopy,
  variables: readonly string[],
): Promise<void> {
  // With the variables, so a header without a used column refuses the file with nothing committed.
  const totalCount = await readFile(file, () => {}, { variables, headerOnly: true });
  await deps.prisma.messageBatch.updateMany({
    where: { id: batchId, status: BatchStatus.UNDER_REVIEW, filePath: { not: null } },
    data: { totalCount },
  });
}

/** 11 -> 13 with the reason (read in each reader's language); nothing was charged, so nothing is refunded. */
async function refuse(deps: IngestDeps, batchId: bigint, err: AppError): Promise<void> {
  const reason = encodeBatchReason({ key: err.key, params: err.params });
  await deps.prisma.messageBatch.updateMany({
    where: { id: batchId, status: BatchStatus.UNDER_REVIEW, filePath: { not: null } },
    data: { status: BatchStatus.REVIEW_REJECTED, reason, filePath: null, finishedAt: new Date() },
  });
  deps.log.info({ batchId: batchId.toString(), reason: err.key }, "batch file refused");
}

/**
 * The batch is committed and charged: a failed enqueue must not fail (and retry) the job, which would find the
 * batch done and never enqueue. Logged; the workers' scheduler picks up batches left in status 20.
 */
async function enqueueDispatch(deps: IngestDeps, batchId: bigint, scheduledAt: Date | null): Promise<void> {
  try {
    await deps.jobs.dispatch(batchId, scheduledAt);
  } catch (err) {
    deps.log.warn({ err, batchId: batchId.toString() }, "could not enqueue dispatch-batch; the scheduler will");
  }
}

/** The numbers are in the database now; the upload (personal data) is not kept. */
async function removeFile(deps: IngestDeps, filePath: string): Promise<void> {
  for (const err of await deps.storage.remove([filePath]))
    deps.log.warn({ err, filePath }, "could not remove an ingested batch file");
}

/**
 * For the worker when the job failed for good (its retries are spent): the batch is refused (11 -> 13) instead of
 * waiting forever. Nothing was charged.
 */
export async function abandonIngest(deps: IngestDeps, job: { batchId: string }): Promise<void> {
  // A batch that is gone, or no longer waiting for its file, is left alone by refuse's conditional update.
  await refuse(deps, BigInt(job.batchId), new AppError(409, "batch.ingest_failed"));
}
