import { BATCH_STAGES, type BatchStage } from "@switchboard/contracts";

export const RCS_STAGES = ["processing", "sending", "finish"] as const satisfies readonly BatchStage[];

/** The portal's list a batch of this status belongs in (processing, sending or finish). */
export function stageOf(status: number): BatchStage {
  for (const stage of RCS_STAGES) if ((BATCH_STAGES[stage] as readonly number[]).includes(status)) return stage;
  return "finish";
}

export const rcsListPath = (stage: BatchStage) => `/user/message/${stage}`;
export const rcsDetailPath = (batch: { id: string; status: number }) =>
  `/user/message/${stageOf(batch.status)}/detail/${batch.id}`;
export const rcsCreatePath = (stage: BatchStage = "processing") => `/user/message/${stage}/create`;
