// The spec's pre-submit check (GET /user/submit/pre): for a prospective batch, the counts (total, valid,
// invalid, duplicate, per country), segments, unit prices, total cost, balance and whether it suffices, whether
// authentication allows sending and whether the batch would wait for review. Writes nothing; the same sorting,
// pricing and review rules as a real submission, so the answer is what a submission would do now.
import {
  type BatchContent,
  contentText,
  countSegments,
  formatMoney,
  type Lang,
  ProductCode,
  type SubmitPreFileFields,
  type SubmitPreQuery,
  type SubmitPreResult,
  submitPreFileFields,
  translate,
} from "@switchboard/contracts";
import { parseInput } from "../../lib/errors";
import { storedPath } from "../../plugins/uploads";
import { canSubmitBatches } from "../authentication/authentication.policy";
import type { BatchDeps } from "./batch-deps";
import { type BatchUpload, discardUpload } from "./batch-upload";
import {
  assertContentFits,
  loadSubmitContext,
  numberReading,
  resolveProduct,
  type SubmitContext,
  unitsPerNumber,
} from "./context";
import { readNumberFile } from "./number-file";
import { NumberSorter } from "./number-sorter";
import { quoteBatch } from "./quote";
import { needsReview } from "./review";

interface Prospect {
  productId?: number | undefined;
  productCode?: number | undefined;
  taskType: number;
  content?: BatchContent | undefined;
}

async function prepare(deps: BatchDeps, userId: number, input: Prospect) {
  const ctx = await loadSubmitContext(deps.prisma, userId);
  const product = await resolveProduct(deps.prisma, ctx.customer.tenantId, input);
  if (input.content) assertContentFits(product, input.content);
  return { ctx, product, sorted: new NumberSorter(numberReading(ctx)) };
}

async function summarise(
  deps: BatchDeps,
  ctx: SubmitContext,
  productId: number,
  input: Prospect,
  sorted: NumberSorter,
  lang: Lang,
  now: Date,
): Promise<SubmitPreResult> {
  const units = unitsPerNumber(input.taskType, input.content);
  const perCountry = sorted.countByCountry();
  const quote = await quoteBatch(deps.prisma, {
    customerId: ctx.customer.id,
    productId,
    units,
    countryCodes: [...perCountry.keys()],
  });
  let valid = 0;
  let totalCost = 0n;
  const countries = [...perCountry.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([countryCode, count]) => {
      const q = quote.countries.get(countryCode)!;
      if (!q.served) {
        return {
          countryCode,
          count,
          served: false,
          reason: translate(lang, q.reason),
          unitPrice: null,
          cost: "0.0000",
        };
      }
      const cost = q.price * BigInt(count);
      valid += count;
      totalCost += cost;
      return {
        countryCode,
        count,
        served: true,
        reason: null,
        unitPrice: formatMoney(q.unitPrice),
        cost: formatMoney(cost),
      };
    });
  const decision = canSubmitBatches(ctx.customer, now);
  const sms = input.content?.product === ProductCode.SMS ? countSegments(input.content.text) : null;
  return {
    total: sorted.total,
    valid,
    invalid: sorted.invalid,
    duplicate: sorted.duplicate,
    notServed: sorted.phones.length - valid,
    countries,
    segments: units,
    encoding: sms?.encoding ?? null,
    totalCost: formatMoney(totalCost),
    balance: formatMoney(ctx.customer.balance),
    sufficient: ctx.customer.balance >= totalCost,
    authenticationAllowed: decision.allowed,
    authenticationReason: decision.allowed ? null : translate(lang, decision.reason),
    reviewRequired: needsReview(ctx.rules, ctx.customer, input.content ? contentText(input.content) : "", valid),
  };
}

/** For numbers given in the request (query string or JSON body). */
export async function preSubmit(
  deps: BatchDeps,
  userId: number,
  q: SubmitPreQuery,
  lang: Lang,
  now: Date,
): Promise<SubmitPreResult> {
  const { ctx, product, sorted } = await prepare(deps, userId, q);
  for (const n of q.numbers) sorted.add(n);
  return summarise(deps, ctx, product.id, q, sorted, lang, now);
}

/** For a file (multipart, like a mode 3 submission): read, summarised and deleted again. */
export async function preSubmitFile(
  deps: BatchDeps,
  userId: number,
  receive: (tenantId: number) => Promise<BatchUpload>,
  lang: Lang,
  now: Date,
): Promise<SubmitPreResult> {
  const first = await loadSubmitContext(deps.prisma, userId);
  const upload = await receive(first.customer.tenantId);
  try {
    const fields: SubmitPreFileFields = parseInput(submitPreFileFields, upload.fields);
    const { ctx, product, sorted } = await prepare(deps, userId, fields);
    await readNumberFile(storedPath(deps.uploadDir, upload.relPath), (raw) => sorted.add(raw));
    return await summarise(deps, ctx, product.id, fields, sorted, lang, now);
  } finally {
    await discardUpload(deps.uploadDir, upload.relPath, deps.log);
  }
}
