// The calls of the direct task modal: the pre-submit check and the submission (docs/batches.md).
import {
  BATCH_FILE_FIELD,
  type BatchContent,
  type BatchFileSubmitResult,
  type BatchSubmitResult,
  type SendableTemplate,
  type SubmitPreResult,
} from "@switchboard/contracts";
import { type ProductCode, SubmitMode, type TaskType } from "@switchboard/contracts/codes";
import { api } from "../../../lib/api";
import { type UploadProgress, uploadWithProgress } from "../../../lib/upload";

export interface Target {
  productCode: ProductCode;
  content: BatchContent;
  /** Message (2) or screening (1: the numbers are checked, nothing is sent to them). */
  taskType: TaskType;
}

export type Recipients =
  | { mode: typeof SubmitMode.SINGLE; number: string }
  | { mode: typeof SubmitMode.MULTIPLE; numbers: string[] }
  | { mode: typeof SubmitMode.FILE; file: File };

interface UploadHooks {
  onProgress: (p: UploadProgress) => void;
  signal?: AbortSignal;
}

function fileForm(target: Target, file: File, scheduledAt?: string): FormData {
  const form = new FormData();
  form.set("productCode", String(target.productCode));
  form.set("taskType", String(target.taskType));
  form.set("content", JSON.stringify(target.content));
  if (scheduledAt) form.set("scheduledAt", scheduledAt);
  form.set(BATCH_FILE_FIELD, file, file.name);
  return form;
}

/**
 * The pre-submit check. Numbers go as a JSON body (POST /user/submit/pre: the spec's GET with the same
 * fields, which a query string could not carry for 10,000 numbers); a file goes to POST /user/submit/pre/file.
 */
export function checkBatch(target: Target, recipients: Recipients, hooks: UploadHooks): Promise<SubmitPreResult> {
  if (recipients.mode === SubmitMode.FILE) {
    return uploadWithProgress<SubmitPreResult>(
      "/user/submit/pre/file",
      fileForm(target, recipients.file),
      hooks.onProgress,
      {
        signal: hooks.signal,
      },
    );
  }
  return api.post<SubmitPreResult>("/user/submit/pre", {
    productCode: target.productCode,
    taskType: target.taskType,
    content: target.content,
    numbers: recipients.mode === SubmitMode.SINGLE ? [recipients.number] : recipients.numbers,
  });
}

export type SubmitAnswer =
  | { mode: typeof SubmitMode.SINGLE | typeof SubmitMode.MULTIPLE; result: BatchSubmitResult }
  | { mode: typeof SubmitMode.FILE; result: BatchFileSubmitResult };

/** POST /batch/submit (modes 1 and 2, JSON) or /batch/submit/file (mode 3, multipart). */
export async function submitBatch(
  target: Target,
  recipients: Recipients,
  scheduledAt: string | undefined,
  hooks: UploadHooks,
): Promise<SubmitAnswer> {
  if (recipients.mode === SubmitMode.FILE) {
    const result = await uploadWithProgress<BatchFileSubmitResult>(
      "/batch/submit/file",
      fileForm(target, recipients.file, scheduledAt),
      hooks.onProgress,
      { signal: hooks.signal },
    );
    return { mode: SubmitMode.FILE, result };
  }
  const common = {
    productCode: target.productCode,
    taskType: target.taskType,
    content: target.content,
    ...(scheduledAt ? { scheduledAt } : {}),
  };
  const body =
    recipients.mode === SubmitMode.SINGLE
      ? { ...common, submitMode: SubmitMode.SINGLE, number: recipients.number }
      : { ...common, submitMode: SubmitMode.MULTIPLE, numbers: recipients.numbers };
  const result = await api.post<BatchSubmitResult>("/batch/submit", body);
  return { mode: recipients.mode, result };
}

export const batchSubmitKeys = {
  wsTemplates: (productCode: ProductCode) => ["batch-submit", "ws-templates", productCode] as const,
};

/** The approved WhatsApp templates the caller's WS product can send (synced by an admin from WhatsApp). */
export const fetchWsTemplates = (productCode: ProductCode, signal?: AbortSignal) =>
  api.get<SendableTemplate[]>("/batch/whatsapp/templates", { params: { productCode }, signal });
