// The WhatsApp templates where batches are made: a batch's template values are checked against the template of
// every channel that would carry it before anything is charged (WhatsApp would refuse a mismatch with 132000 only
// after the money was taken), and a template message is priced by its template's category. The templates are
// synced and listed by the API's channel module (apps/api/src/modules/channels/whatsapp-templates.service.ts).
import { checkTemplateValues, needsOfStored, type TemplateHeaderKind } from "@switchboard/channels/whatsapp";
import { type BatchContent, ProductCode, whatsappTemplateButtons } from "@switchboard/contracts";
import type { Db, Prisma } from "@switchboard/db";
import { badRequest } from "../errors";

/** What the check reads of a synced template. */
const checkedSelect = {
  channelId: true,
  status: true,
  bodyParams: true,
  headerKind: true,
  headerParam: true,
  buttonParams: true,
} satisfies Prisma.WhatsappTemplateSelect;

/**
 * Refuses (400, nothing written) a WS template batch whose template is unknown, not approved, or given other
 * values than it takes, on any channel that would carry it and whose templates were synced. A channel never
 * synced is not checked: there is nothing to check against (WhatsApp answers for it at send time).
 */
export async function assertTemplateFits(db: Db, channelIds: readonly number[], content: BatchContent): Promise<void> {
  if (content.product !== ProductCode.WS || content.body.type !== "template" || channelIds.length === 0) return;
  const body = content.body;
  const synced = await db.whatsappTemplate.groupBy({
    by: ["channelId"],
    where: { channelId: { in: [...channelIds] } },
  });
  if (synced.length === 0) return;
  const found = await db.whatsappTemplate.findMany({
    where: { channelId: { in: synced.map((s) => s.channelId) }, name: body.name, language: body.language },
    select: checkedSelect,
  });
  for (const { channelId } of synced) {
    const t = found.find((f) => f.channelId === channelId);
    if (!t) throw badRequest("batch.template_unknown", { name: body.name, language: body.language });
    if (t.status !== "APPROVED") throw badRequest("batch.template_not_approved", { name: body.name, status: t.status });
    const mismatch = checkTemplateValues(
      needsOfStored({
        bodyParams: t.bodyParams,
        headerKind: t.headerKind as TemplateHeaderKind | null,
        headerParam: t.headerParam,
        buttonParams: whatsappTemplateButtons.parse(t.buttonParams),
      }),
      body,
    );
    if (mismatch?.problem === "params") {
      throw badRequest("batch.template_params", {
        name: body.name,
        expected: mismatch.expected,
        given: mismatch.given,
      });
    }
    if (mismatch?.problem === "header") {
      throw badRequest("batch.template_header", { name: body.name, expected: mismatch.expected });
    }
    if (mismatch) throw badRequest("batch.template_buttons", { name: body.name, expected: mismatch.expected });
  }
}

/** The template a WS batch's content names, or null for any other content. */
export function templateOf(content: BatchContent | undefined): { name: string; language: string } | null {
  if (content?.product !== ProductCode.WS || content.body.type !== "template") return null;
  return { name: content.body.name, language: content.body.language };
}

/**
 * The category (lower case: marketing, utility, authentication) of a template on each channel that has it synced:
 * what a template message sent through that channel is priced by. Channels without it are absent.
 */
export async function templateCategories(
  db: Db,
  channelIds: readonly number[],
  template: { name: string; language: string },
): Promise<Map<number, string>> {
  if (channelIds.length === 0) return new Map();
  const rows = await db.whatsappTemplate.findMany({
    where: { channelId: { in: [...channelIds] }, name: template.name, language: template.language },
    select: { channelId: true, category: true },
  });
  return new Map(rows.map((r) => [r.channelId, r.category.toLowerCase()]));
}
