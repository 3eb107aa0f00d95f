// The spec's pre-submit check (GET /user/submit/pre): for a prospective batch, the counts (total, valid,
// invalid, duplicate, per country) with the first rejected inputs and why, segments (a personalised file's: the
// largest and the total after each row is filled, each row priced as its own message), unit prices, total cost,
// balance and whether it suffices, whether authentication allows sending and whether the batch would wait for
// review. Writes nothing; the same sorting, pricing and review rules as a real submission, so the answer is what a
// submission would do now. A product that no active channel carries for the customer is refused (409) here.
import {
  type BatchContent,
  contentText,
  countSegmentsWithLinks,
  formatMoney,
  type Lang,
  linkLengthOf,
  ProductCode,
  type SubmitPreFileFields,
  type SubmitPreQuery,
  type SubmitPreResult,
  submitPreFileFields,
  translate,
} from "@switchboard/contracts";
import { canSubmitBatches } from "@switchboard/domain/authentication-policy";
import {
  assertContentFits,
  assertProductCanSend,
  assertTaskSupported,
  loadSubmitContext,
  numberReading,
  resolveProduct,
  type SubmitContext,
  unitsPerNumber,
} from "@switchboard/domain/batches/context";
import { NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { type NumberTally, tallyOf } from "@switchboard/domain/batches/number-tally";
import { optedOutAll, optedOutAmong } from "@switchboard/domain/batches/opt-out-usage";
import { assertNoVariables, contentVariables } from "@switchboard/domain/batches/personalise";
import { fallbackAsk, priceOf, quoteBatch } from "@switchboard/domain/batches/quote";
import { needsReview } from "@switchboard/domain/batches/review";
import { assertSenderIdApproved } from "@switchboard/domain/batches/sender-id-usage";
import { templateOf } from "@switchboard/domain/batches/whatsapp-templates";
import { needsOpenWindow, openWindows } from "@switchboard/domain/batches/whatsapp-window";
import { withLinkBase } from "@switchboard/domain/links";
import { withLocalFile } from "@switchboard/domain/storage";
import { parseInput } from "../../lib/errors";
import type { BatchDeps } from "./batch-deps";
import { type BatchUpload, discardUpload } from "./batch-upload";
import { summariseNumberFile } from "./file-summary";

interface Prospect {
  productId?: number | undefined;
  productCode?: number | undefined;
  taskType: number;
  content?: BatchContent | undefined;
}

async function prepare(deps: BatchDeps, userId: number, input: Prospect) {
  const ctx = await loadSubmitContext(deps.prisma, userId);
  const product = await resolveProduct(deps.prisma, ctx.customer.tenantId, input);
  assertTaskSupported(product, input.taskType);
  if (input.content) assertContentFits(product, input.content);
  // Counted as the submission will count it: tracked links at this deployment's short link length.
  if (input.content) input.content = withLinkBase(input.content, deps.links);
  await assertProductCanSend(deps.prisma, ctx.customer, product);
  return { ctx, product };
}

/**
 * WhatsApp free-form content: the numbers with an open 24-hour window on any of the tenant's WhatsApp channels
 * (only `phones` when given); the summary then counts, per country, those open on the channel that would carry
 * them. undefined when the content needs no window.
 */
async function windowsFor(deps: BatchDeps, ctx: SubmitContext, input: Prospect, phones?: readonly string[]) {
  if (!needsOpenWindow(input.content, input.taskType)) return undefined;
  const channels = await deps.prisma.channel.findMany({
    where: { tenantId: ctx.customer.tenantId, kind: "whatsapp" },
    select: { id: true },
  });
  return openWindows(
    deps.prisma,
    channels.map((c) => c.id),
    phones,
  );
}

async function summarise(
  deps: BatchDeps,
  ctx: SubmitContext,
  productId: number,
  input: Prospect,
  tally: NumberTally,
  lang: Lang,
  now: Date,
): Promise<SubmitPreResult> {
  const units = unitsPerNumber(input.taskType, input.content);
  const perCountry = tally.perCountry;
  const quote = await quoteBatch(deps.prisma, {
    customerId: ctx.customer.id,
    productId,
    units,
    countryCodes: [...perCountry.keys()],
    // RCS with fallback text is charged the larger of its price and the SMS fallback's, as the submission will be
    fallback: input.content ? await fallbackAsk(deps.prisma, ctx.customer.tenantId, input.content) : null,
    taskType: input.taskType,
    template: templateOf(input.content),
  });
  // Refused like the submission would be: an SMS sender id not approved for a country the batch would send to.
  const sentTo = [...quote.countries].filter(([, q]) => q.served).map(([code]) => code);
  await assertSenderIdApproved(deps.prisma, ctx.customer.id, input, sentTo);
  let valid = 0;
  let windowClosed = 0;
  let optOut = 0;
  let totalCost = 0n;
  // Chargeable units after filling: the largest of one recipient and the sum over those charged.
  let segmentsMax = 0;
  let segmentsTotal = 0;
  const countries = [...perCountry.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([countryCode, count]) => {
      const q = quote.countries.get(countryCode)!;
      // Numbers on the customer's opt-out list are refused first (reason 5), whatever their country.
      const opted = tally.optOutPerCountry?.get(countryCode) ?? 0;
      optOut += opted;
      if (!q.served) {
        return {
          countryCode,
          count,
          served: false,
          reason: translate(lang, q.reason),
          unitPrice: null,
          fallbackPrice: null,
          cost: "0.0000",
        };
      }
      // WhatsApp free-form content: numbers without an open window on this country's channel are refused
      // (reason 4) and not charged, as the submission would.
      const eligible = count - opted;
      const closed = tally.openPerCountry
        ? eligible - (tally.openPerCountry.get(countryCode)?.get(q.channelId) ?? 0)
        : 0;
      const sent = eligible - closed;
      let cost = q.price * BigInt(sent);
      const byUnits = tally.unitsPerCountry?.get(countryCode);
      if (byUnits) {
        // A personalised batch (no window to wait for: SMS and RCS): each number priced as its filled message.
        cost = 0n;
        for (const [key, n] of byUnits) {
          const [u, fu] = key.split(":").map(Number) as [number, number];
          cost += priceOf(q, u, fu).price * BigInt(n);
          segmentsMax = Math.max(segmentsMax, u);
          segmentsTotal += u * n;
        }
      } else if (sent > 0) {
        segmentsMax = Math.max(segmentsMax, units);
        segmentsTotal += units * sent;
      }
      valid += sent;
      windowClosed += closed;
      totalCost += cost;
      return {
        countryCode,
        count,
        served: true,
        reason: null,
        unitPrice: formatMoney(q.unitPrice),
        fallbackPrice: q.fallbackPrice === null ? null : formatMoney(q.fallbackPrice),
        cost: formatMoney(cost),
      };
    });
  const decision = canSubmitBatches(ctx.customer, now);
  const sms =
    input.content?.product === ProductCode.SMS
      ? countSegmentsWithLinks(input.content.text, linkLengthOf(input.content))
      : null;
  return {
    total: tally.total,
    valid,
    invalid: tally.invalid,
    duplicate: tally.duplicate,
    rejected: tally.rejected,
    notServed: tally.distinct - valid - windowClosed - optOut,
    windowClosed,
    optOut,
    countries,
    segments: units,
    variables: tally.columns,
    segmentsMax,
    segmentsTotal,
    unfilled: tally.unfilled,
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
  const { ctx, product } = await prepare(deps, userId, q);
  assertNoVariables(q);
  const sorted = new NumberSorter(numberReading(ctx));
  for (const n of q.numbers) sorted.add(n);
  const phones = sorted.phoneList();
  const open = await windowsFor(deps, ctx, q, phones);
  const optedOut = await optedOutAmong(deps.prisma, ctx.customer.id, phones);
  return summarise(deps, ctx, product.id, q, tallyOf(sorted, open, optedOut), lang, now);
}

/**
 * For a file (multipart, like a mode 3 submission): read, summarised and deleted again. The file is read and its
 * numbers sorted in a worker thread (file-summary.ts), so a large one never holds the event loop; `signal` (the
 * client left) stops that work.
 */
export async function preSubmitFile(
  deps: BatchDeps,
  userId: number,
  receive: (tenantId: number) => Promise<BatchUpload>,
  lang: Lang,
  now: Date,
  signal?: AbortSignal,
): Promise<SubmitPreResult> {
  const first = await loadSubmitContext(deps.prisma, userId);
  const upload = await receive(first.customer.tenantId);
  try {
    const fields: SubmitPreFileFields = parseInput(submitPreFileFields, upload.fields);
    const { ctx, product } = await prepare(deps, userId, fields);
    const open = await windowsFor(deps, ctx, fields);
    const optedOut = await optedOutAll(deps.prisma, ctx.customer.id);
    const variables = contentVariables(fields.taskType, fields.content);
    const personalised = fields.content && variables.length > 0 ? { content: fields.content, variables } : undefined;
    const tally = await withLocalFile(deps.storage, upload.relPath, (file) =>
      summariseNumberFile(file, numberReading(ctx), signal, undefined, open, optedOut, personalised),
    );
    return await summarise(deps, ctx, product.id, fields, tally, lang, now);
  } finally {
    await discardUpload(deps.storage, upload.relPath, deps.log);
  }
}
