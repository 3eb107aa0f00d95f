// "Send to the reachable numbers": a finished screening batch (task type 1, status 22) becomes a message batch
// to the numbers it found reachable (send result 1, receive result 1), on the same product, through the normal
// submission (pricing, balance, review, routing and idempotency as for any mode 2 batch).
import {
  BatchStatus,
  type BatchSubmitResult,
  type ReachableSendBody,
  ReceiveResult,
  SendResult,
  SubmitMode,
  TaskType,
} from "@switchboard/contracts";
import { badRequest, notFound } from "../../lib/errors";
import type { BatchDeps } from "./batch-deps";
import { type SubmitOptions, type Submitted, submitBatch } from "./submit.service";

export async function sendToReachable(
  deps: BatchDeps,
  userId: number,
  input: ReachableSendBody,
  opts: SubmitOptions,
  now: Date,
): Promise<Submitted<BatchSubmitResult>> {
  // Only the customer's own screening batch: anyone else's answers like a missing one.
  const screening = await deps.prisma.messageBatch.findFirst({
    where: { id: BigInt(input.id), userId, taskType: TaskType.SCREENING },
    select: { id: true, status: true, productId: true },
  });
  if (!screening) throw notFound("entity.batch");
  if (screening.status !== BatchStatus.SEND_FINISHED) throw badRequest("batch.screening_not_finished");
  const reachable = await deps.prisma.recipient.findMany({
    where: { batchId: screening.id, sendResult: SendResult.SUCCESS, receiveResult: ReceiveResult.RECEIVED },
    select: { phone: true },
    orderBy: { id: "asc" },
  });
  if (reachable.length === 0) throw badRequest("batch.no_reachable_numbers");
  const submitted = await submitBatch(
    deps,
    userId,
    {
      productId: screening.productId,
      taskType: TaskType.MESSAGE,
      submitMode: SubmitMode.MULTIPLE,
      // Above mode 2's request limit is fine here: the numbers come from our own rows, not a request body.
      numbers: reachable.map((r) => r.phone),
      content: input.content,
      ...(input.scheduledAt ? { scheduledAt: input.scheduledAt } : {}),
    },
    opts,
    now,
  );
  // Every number was reachable and valid: the per-number list would only repeat them.
  return { ...submitted, result: { ...submitted.result, numbers: [] } };
}
