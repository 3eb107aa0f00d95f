// Submitting a batch: mode 1 (one number, the answer waits for the provider's outcome), mode 2 (up to 10,000
// numbers, per-number validity in the answer) and mode 3 (a file: stored and checked, the batch row created in
// status 11 while a worker reads the numbers). Everything is checked before anything is written; the batch,
// its recipients and its charge are written together by materializeBatch. Decisions: docs/batches.md.
import {
  type BatchFileFields,
  type BatchFileSubmitResult,
  type BatchSource,
  BatchStatus,
  type BatchSubmitBody,
  type BatchSubmitResult,
  batchFileFields,
  formatMoney,
  type Lang,
  type NumberOutcome,
  SendResult,
  SubmitMode,
} from "@switchboard/contracts";
import { type Db, Prisma } from "@switchboard/db";
import { batchRowById, batchRowOf, singleSendView } from "@switchboard/domain/batches/batch-row";
import {
  assertContentFits,
  assertMaySubmit,
  assertTaskSupported,
  checkSchedule,
  numberReading,
  senderIdOf,
  unitsPerNumber,
} from "@switchboard/domain/batches/context";
import { type BatchSpec, type Materialized, materializeBatch } from "@switchboard/domain/batches/materialize";
import { checkNumberFile } from "@switchboard/domain/batches/number-file";
import { decodeOutcome, NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { assertNoVariables, contentVariables } from "@switchboard/domain/batches/personalise";
import type { BatchQuote } from "@switchboard/domain/batches/quote";
import { assertSenderIdUsable } from "@switchboard/domain/batches/sender-id-usage";
import { withLinkBase } from "@switchboard/domain/links";
import { withLocalFile } from "@switchboard/domain/storage";
import { AppError, notFound, parseInput } from "../../lib/errors";
import { withIdempotencyKey } from "../developer/idempotency";
import type { BatchDeps } from "./batch-deps";
import { type BatchUpload, discardUpload } from "./batch-upload";
import type { OutcomeWatch } from "./outcome-signal";
import type { LaneMaterialized } from "./single-lane";
import type { HeldContext } from "./submit-memory";

export interface SubmitOptions {
  source: BatchSource;
  /** The caller's language: the answer's batch row (its reason) is in it. */
  lang: Lang;
  /** Developer API Idempotency-Key: the same key returns the batch it created, never a second one. */
  idempotencyKey?: string | null;
}

/** What a submission answers, and whether it is a replay of an earlier request with the same key. */
export interface Submitted<T> {
  result: T;
  replayed: boolean;
}

// ---------------------------------------------------------------- shared pieces

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

async function batchByKey(db: Db, userId: number, key: string | null | undefined): Promise<bigint | null> {
  if (!key) return null;
  const row = await db.messageBatch.findUnique({
    where: { userId_idempotencyKey: { userId, idempotencyKey: key } },
    select: { id: true },
  });
  return row?.id ?? null;
}

/**
 * The batch's first job after its transaction committed. A failure to enqueue must not turn a committed,
 * charged batch into an error answer (the client would submit and pay again): it is logged, and the workers'
 * scheduler picks up batches left in status 20.
 */
async function enqueueDispatch(
  deps: BatchDeps,
  made: { batchId: bigint; createdAt?: Date; recipientId?: bigint },
  scheduledAt: Date | null,
): Promise<void> {
  try {
    // Written by the single-send lane: sent with the rest of its group (single-lane.ts).
    if (made.createdAt && made.recipientId !== undefined && scheduledAt === null)
      await deps.lane.dispatch({ id: made.batchId, createdAt: made.createdAt, recipientId: made.recipientId });
    else if (made.createdAt && scheduledAt === null)
      await deps.jobs.dispatchNow([{ id: made.batchId, createdAt: made.createdAt }]);
    else await deps.jobs.dispatch(made.batchId, scheduledAt);
  } catch (err) {
    deps.log.error({ err, batchId: made.batchId.toString() }, "could not enqueue dispatch-batch; the scheduler will");
  }
}

/** The checks every mode makes before reading numbers: account, product, content, schedule. */
async function prepare(
  deps: BatchDeps,
  userId: number,
  input: {
    productId?: number | undefined;
    productCode?: number | undefined;
    taskType: number;
    content: BatchSpec["content"];
    scheduledAt?: string | undefined;
  },
  mode: { submitMode: number; source: BatchSource; idempotencyKey: string | null },
  now: Date,
): Promise<{ ctx: HeldContext; spec: BatchSpec }> {
  // Account, rules and product as memory holds them (read once, forgotten on any change: submit-memory.ts).
  const { memory } = deps.lane;
  const ctx = await memory.context(userId);
  assertMaySubmit(ctx.customer, now);
  const product = await memory.product(ctx.customer.tenantId, input);
  assertTaskSupported(product, input.taskType);
  assertContentFits(product, input.content);
  const scheduledAt = checkSchedule(input.scheduledAt, now);
  // Kept with where its short links are served: its segments are counted, priced and sent with that length.
  const content = withLinkBase(input.content, deps.links);
  return {
    ctx,
    spec: {
      productId: product.id,
      productCode: product.code,
      taskType: input.taskType,
      submitMode: mode.submitMode,
      source: mode.source,
      content,
      units: unitsPerNumber(input.taskType, content),
      scheduledAt,
      idempotencyKey: mode.idempotencyKey,
    },
  };
}

// ---------------------------------------------------------------- modes 1 and 2

function numberOutcomes(
  inputs: readonly string[],
  sorted: NumberSorter,
  quote: BatchQuote,
  optedOut: ReadonlySet<string>,
): NumberOutcome[] {
  return inputs.map((input, i) => {
    const o = decodeOutcome(sorted.outcomes![i]!);
    if (o.kind === "invalid") return { input, result: "invalid", e164: null, countryCode: null };
    const e164 = sorted.phone(o.index);
    const countryCode = sorted.country(o.index);
    if (o.kind === "duplicate") return { input, result: "duplicate", e164, countryCode };
    if (optedOut.has(e164)) return { input, result: "opted_out", e164, countryCode };
    const served = quote.countries.get(countryCode)?.served ?? false;
    return { input, result: served ? "accepted" : "country_not_served", e164, countryCode };
  });
}

/** Mode 1 refuses an unusable number outright (there is nothing else in the batch). */
function assertSingleUsable(sorted: NumberSorter): void {
  if (sorted.size === 0) throw new AppError(400, "batch.number_invalid");
}

function singleNotServed(err: unknown, sorted: NumberSorter): unknown {
  if (!(err instanceof AppError) || !err.key.startsWith("batch.no_valid_numbers")) return err;
  return new AppError(400, "batch.number_not_served", {
    country: sorted.size > 0 ? sorted.country(0) : "",
    reason: String(err.params.reason ?? "price.country_not_served"),
  });
}

/** A single send's batch and recipient as its answer shows them. */
async function singleSend(deps: BatchDeps, batchId: bigint, lang: Lang) {
  const record = await deps.singleSends.load(batchId);
  if (!record) throw notFound("entity.batch");
  return singleSendView(record, lang);
}

/**
 * Mode 1: the batch and its one recipient once the provider answered (send result leaves 0), or as they are when
 * the wait ends. The requests one outcome message wakes read in one statement (deps.singleSends).
 */
function awaitSingleOutcome(deps: BatchDeps, batchId: bigint, watch: OutcomeWatch, lang: Lang) {
  const read = () => singleSend(deps, batchId, lang);
  return deps.outcomes.wait(
    watch,
    Date.now() + deps.singleWaitMs,
    async () => {
      const row = await read();
      return row.recipient && row.recipient.sendResult !== SendResult.NOT_SENT ? row : undefined;
    },
    read,
  );
}

/**
 * Mode 1's answer, with the batch row: a watch (started before the dispatch was enqueued) when the batch is being
 * sent now.
 */
async function singleAnswer(deps: BatchDeps, batchId: bigint, status: number, watch: OutcomeWatch | null, lang: Lang) {
  const { batch, recipient: r } = watch
    ? await awaitSingleOutcome(deps, batchId, watch, lang)
    : await singleSend(deps, batchId, lang);
  if (status === BatchStatus.UNDER_REVIEW) return { batch, outcome: "under_review" as const, recipient: null };
  if (!r) throw new Error(`batch ${batchId} has no recipient`);
  const outcome = !watch
    ? ("scheduled" as const)
    : r.sendResult === SendResult.SUCCESS
      ? ("accepted" as const)
      : r.sendResult === SendResult.NOT_SENT
        ? ("sending" as const)
        : ("refused" as const);
  return { batch, outcome, recipient: { ...r, price: formatMoney(r.price) } };
}

/**
 * Modes 1 and 2. Mode 1 enqueues the dispatch and waits (deps.singleWaitMs at most) for the provider's answer
 * for its number; it answers "sending" honestly when none came in time, "under_review" or "scheduled" when the
 * batch does not go out now.
 */
export function submitBatch(
  deps: BatchDeps,
  userId: number,
  body: BatchSubmitBody,
  opts: SubmitOptions,
  now: Date,
): Promise<Submitted<BatchSubmitResult>> {
  const key = opts.idempotencyKey ?? null;
  return withIdempotencyKey(deps, { userId, key, request: body }, () => createBatch(deps, userId, body, opts, now));
}

async function createBatch(
  deps: BatchDeps,
  userId: number,
  body: BatchSubmitBody,
  opts: SubmitOptions,
  now: Date,
): Promise<Submitted<BatchSubmitResult>> {
  const key = opts.idempotencyKey ?? null;
  const replay = async (batchId: bigint): Promise<Submitted<BatchSubmitResult>> => ({
    result: { batch: await batchRowById(deps.prisma, batchId, opts.lang), numbers: [], outcome: null, recipient: null },
    replayed: true,
  });
  const earlier = await batchByKey(deps.prisma, userId, key);
  if (earlier !== null) return replay(earlier);

  const { ctx, spec } = await prepare(
    deps,
    userId,
    body,
    { submitMode: body.submitMode, source: opts.source, idempotencyKey: key },
    now,
  );
  // Numbers typed or sent in the request have no columns to fill a variable from.
  assertNoVariables(spec);
  const inputs = body.submitMode === SubmitMode.SINGLE ? [body.number] : body.numbers;
  const sorted = new NumberSorter(numberReading(ctx), true);
  for (const n of inputs) sorted.add(n);
  if (body.submitMode === SubmitMode.SINGLE) assertSingleUsable(sorted);

  let made: Materialized | LaneMaterialized;
  try {
    // A single send goes through the lane when it qualifies (written in a group with others); else as any batch.
    made =
      (await deps.lane.materialize(ctx, spec, sorted)) ??
      (await materializeBatch(deps.prisma, { ...ctx, target: { kind: "create", spec }, sorted }));
  } catch (err) {
    // A parallel request with the same key committed first: answer with its batch.
    if (key && isUniqueViolation(err)) {
      const winner = await batchByKey(deps.prisma, userId, key);
      if (winner !== null) return replay(winner);
    }
    throw body.submitMode === SubmitMode.SINGLE ? singleNotServed(err, sorted) : err;
  }
  const sendsNow = made.status === BatchStatus.PENDING_SEND && spec.scheduledAt === null;
  const watch = body.submitMode === SubmitMode.SINGLE && sendsNow ? await deps.outcomes.watch(made.batchId) : null;
  const laneRow = (made as Partial<LaneMaterialized>).row;
  if (made.status === BatchStatus.PENDING_SEND) {
    const handOver = enqueueDispatch(deps, made, spec.scheduledAt);
    // A send the lane wrote is committed and charged: mode 2 ("accept, answer at once, send asynchronously")
    // answers without waiting for the lane's hand-over, which waits up to its linger to share a group (the app's
    // close waits for it; one that fails is logged, and the scheduler sends the batch left in 20).
    if (watch || !laneRow) await handOver;
  }

  const numbers = numberOutcomes(inputs, sorted, made.quote, made.optedOut);
  const single =
    body.submitMode === SubmitMode.SINGLE
      ? await singleAnswer(deps, made.batchId, made.status, watch, opts.lang)
      : {
          // Written by the lane: the row as written is the answer (no read).
          batch: laneRow ? batchRowOf(laneRow, opts.lang) : await batchRowById(deps.prisma, made.batchId, opts.lang),
          outcome: null,
          recipient: null,
        };
  return { result: { numbers, ...single }, replayed: false };
}

// ---------------------------------------------------------------- mode 3

/**
 * Mode 3: checks the account first (before the upload is read), then the form fields and the start of the
 * stored file, and creates the batch in status 11 with its file pending; the ingest job reads the numbers,
 * charges and decides review. The batch id returns at once; GET /batch/detail shows ingestedCount of totalCount.
 * `receive` reads the multipart request (and stores the file) only after the account checks passed.
 */
export async function submitFileBatch(
  deps: BatchDeps,
  userId: number,
  receive: (tenantId: number) => Promise<BatchUpload>,
  opts: SubmitOptions,
  now: Date,
): Promise<Submitted<BatchFileSubmitResult>> {
  const first = await deps.lane.memory.context(userId);
  assertMaySubmit(first.customer, now);
  const upload = await receive(first.customer.tenantId);
  try {
    const fields = parseInput(batchFileFields, upload.fields);
    const request = { fields, file: upload.sha256 };
    return await withIdempotencyKey(deps, { userId, key: opts.idempotencyKey, request }, () =>
      createFileBatch(deps, userId, fields, upload, opts, now),
    );
  } catch (err) {
    await discardUpload(deps.storage, upload.relPath, deps.log);
    throw err;
  }
}

async function createFileBatch(
  deps: BatchDeps,
  userId: number,
  fields: BatchFileFields,
  upload: BatchUpload,
  opts: SubmitOptions,
  now: Date,
): Promise<Submitted<BatchFileSubmitResult>> {
  const key = opts.idempotencyKey ?? null;
  const earlier = await batchByKey(deps.prisma, userId, key);
  if (earlier !== null) {
    await discardUpload(deps.storage, upload.relPath, deps.log);
    return { result: { batch: await batchRowById(deps.prisma, earlier, opts.lang) }, replayed: true };
  }
  const { ctx, spec } = await prepare(
    deps,
    userId,
    fields,
    { submitMode: SubmitMode.FILE, source: opts.source, idempotencyKey: key },
    now,
  );
  // An SMS sender id must be approved for some country now; for the countries of the file's numbers when it is read.
  await assertSenderIdUsable(deps.prisma, ctx.customer.id, spec);
  // Only a bounded start of the file is read here (never the whole of a large one: the request must not hold the
  // event loop): a small file is read whole and refused or counted at once; a large one's other refusals (no
  // number, too many, a bad row further down) come from the ingest job, which ends the batch in 13 with the
  // reason, and its totalCount (0 until then) is set when the ingest has counted it.
  // A variable the file's header does not name is refused here (the header is in the start the request reads;
  // an XLSX too large to read here is refused by the ingest).
  const variables = contentVariables(spec.taskType, spec.content);
  const totalCount =
    (await withLocalFile(deps.storage, upload.relPath, (file) =>
      checkNumberFile(file, undefined, { variables, headerOnly: true }),
    )) ?? 0;

  let batchId: bigint;
  try {
    const created = await deps.prisma.messageBatch.create({
      data: {
        tenantId: ctx.customer.tenantId,
        userId: ctx.customer.id,
        agentId: ctx.customer.agentId,
        productId: spec.productId,
        productCode: spec.productCode,
        taskType: spec.taskType,
        submitMode: SubmitMode.FILE,
        source: spec.source,
        status: BatchStatus.UNDER_REVIEW,
        content: spec.content as Prisma.InputJsonValue,
        senderId: senderIdOf(spec.content),
        segments: spec.units,
        scheduledAt: spec.scheduledAt,
        filePath: upload.relPath,
        fileName: upload.fileName,
        totalCount,
        idempotencyKey: key,
      },
      select: { id: true },
    });
    batchId = created.id;
  } catch (err) {
    if (key && isUniqueViolation(err)) {
      const winner = await batchByKey(deps.prisma, userId, key);
      if (winner !== null) {
        await discardUpload(deps.storage, upload.relPath, deps.log);
        return { result: { batch: await batchRowById(deps.prisma, winner, opts.lang) }, replayed: true };
      }
    }
    throw err;
  }
  try {
    await deps.jobs.ingest(batchId);
  } catch (err) {
    // Without its job the batch would wait forever: take it back (nothing was charged) and fail the request.
    await deps.prisma.messageBatch.delete({ where: { id: batchId } });
    throw err;
  }
  return { result: { batch: await batchRowById(deps.prisma, batchId, opts.lang) }, replayed: false };
}
