// The batch file form, shared by the web's file submission and pre-submit check and the developer API's
// POST /v1/messages/file: what the form holds (documented on each route) and where its file goes.
import { BATCH_FILE_FIELD, BATCH_FILE_MAX_BYTES, BATCH_FILE_MAX_NUMBERS } from "@switchboard/contracts";
import type { FastifyRequest } from "fastify";
import type { BatchDeps } from "./batch-deps";
import { receiveBatchUpload } from "./batch-upload";

export const FILE_FORM_DESCRIPTION =
  `multipart/form-data: the file in field \`${BATCH_FILE_FIELD}\` (CSV or TXT, UTF-8 or UTF-16 with BOM; at most ` +
  `${BATCH_FILE_MAX_BYTES / (1024 * 1024)} MB and ${BATCH_FILE_MAX_NUMBERS.toLocaleString("en")} numbers; one ` +
  "number per line, or the column named phone/mobile/number, else the first column) and the text fields " +
  "productId or productCode, taskType (1 screening, 2 message), content (JSON text of the product's content, " +
  'e.g. {"product":3000,"text":"Hello"}) and scheduledAt (optional ISO 8601).';

/** Where a customer's uploads go: batches/<tenant>/ in the storage (under UPLOAD_DIR, or the bucket). */
export const uploadReceiver = (deps: BatchDeps, req: FastifyRequest) => (tenantId: number) =>
  receiveBatchUpload(req, deps.storage, ["batches", String(tenantId)]);
