// WhatsApp message templates: an admin syncs a WS channel's templates from its business account (the whole set
// is replaced: a template deleted at Meta goes here too); customers list the approved ones their WS product can
// send; a batch's template values are checked against the template of every channel that would carry it before
// anything is charged (WhatsApp would refuse a mismatch with 132000 only after the money was taken).
import { decryptSecrets } from "@switchboard/channels";
import {
  checkTemplateValues,
  listTemplates,
  needsOfStored,
  storedNeeds,
  type TemplateHeaderKind,
} from "@switchboard/channels/whatsapp";
import {
  type BatchContent,
  ProductCode,
  type SendableTemplate,
  type TemplateSyncResult,
  type WhatsappChannelConfig,
  type WhatsappTemplateRow,
  whatsappTemplateButtons,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { badRequest } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";
import { type ChannelDeps, findOwnChannel } from "./channels.service";

/** Replaces a WS channel's templates with what its business account lists now. */
export async function syncTemplates(deps: ChannelDeps, p: Principal, channelId: number): Promise<TemplateSyncResult> {
  const row = await findOwnChannel(deps.prisma, p, channelId);
  if (row.kind !== "whatsapp") throw badRequest("channel.templates_whatsapp_only");
  const config = row.config as WhatsappChannelConfig;
  if (!config.wabaId) throw badRequest("channel.templates_waba_required");
  const secrets = decryptSecrets(deps.secretKey, row.tenantId, row.secrets);
  const listed = await listTemplates(
    {
      baseUrl: config.baseUrl,
      apiVersion: config.apiVersion,
      phoneNumberId: config.phoneNumberId,
      wabaId: config.wabaId,
      accessToken: secrets.accessToken ?? "",
    },
    { egress: deps.egress },
  );
  if (!listed.ok) {
    if (listed.errorCode === "EGRESS_REFUSED") throw badRequest("channel.egress_refused", { host: config.baseUrl });
    throw badRequest("channel.templates_sync_failed", { code: listed.errorCode });
  }
  const syncedAt = new Date();
  // One template per (name, language): the first listed wins should WhatsApp ever list one twice.
  const seen = new Set<string>();
  const rows = listed.templates.flatMap((t) => {
    const key = `${t.name}\u0000${t.language}`;
    if (seen.has(key) || t.name.length > 512 || t.language.length > 16) return [];
    seen.add(key);
    return [
      {
        tenantId: row.tenantId,
        channelId: row.id,
        name: t.name,
        language: t.language,
        category: t.category.slice(0, 20).toUpperCase(),
        status: t.status.slice(0, 20).toUpperCase(),
        components: t.components as Prisma.InputJsonValue,
        ...storedNeeds(t.components),
        syncedAt,
      },
    ];
  });
  await deps.prisma.$transaction(async (tx) => {
    await tx.whatsappTemplate.deleteMany({ where: { channelId: row.id } });
    if (rows.length > 0) await tx.whatsappTemplate.createMany({ data: rows });
  });
  return {
    total: rows.length,
    approved: rows.filter((r) => r.status === "APPROVED").length,
    syncedAt: syncedAt.toISOString(),
  };
}

const templateSelect = {
  id: true,
  channelId: true,
  name: true,
  language: true,
  category: true,
  status: true,
  components: true,
  bodyParams: true,
  headerKind: true,
  headerParam: true,
  buttonParams: true,
  syncedAt: true,
} satisfies Prisma.WhatsappTemplateSelect;

type TemplateRecord = Prisma.WhatsappTemplateGetPayload<{ select: typeof templateSelect }>;

function toRow(t: TemplateRecord): WhatsappTemplateRow {
  return {
    id: t.id,
    channelId: t.channelId,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    components: t.components as unknown[],
    bodyParams: t.bodyParams,
    headerKind: t.headerKind,
    headerParam: t.headerParam,
    buttons: whatsappTemplateButtons.parse(t.buttonParams),
    syncedAt: t.syncedAt.toISOString(),
  };
}

/** A WS channel's synced templates, for the admin (every status). */
export async function channelTemplates(prisma: PrismaClient, p: Principal, channelId: number) {
  const row = await findOwnChannel(prisma, p, channelId);
  const list = await prisma.whatsappTemplate.findMany({
    where: { channelId: row.id },
    select: templateSelect,
    orderBy: [{ name: "asc" }, { language: "asc" }],
  });
  return list.map(toRow);
}

/**
 * The approved templates a customer's WS product can send: those of the channels its numbers would go through
 * (the product's default channel and the customer's own routes for it), one per name and language.
 */
export async function sendableTemplates(
  prisma: PrismaClient,
  customer: { id: number; tenantId: number },
  productId: number,
): Promise<SendableTemplate[]> {
  const product = await prisma.product.findFirst({
    where: { id: productId, tenantId: customer.tenantId },
    select: { defaultChannelId: true },
  });
  if (!product) return [];
  const routes = await prisma.channelRoute.findMany({
    where: { tenantId: customer.tenantId, productId, userId: customer.id },
    select: { channelId: true },
  });
  const channelIds = [
    ...new Set([product.defaultChannelId, ...routes.map((r) => r.channelId)].filter((c): c is number => c !== null)),
  ];
  const list = await prisma.whatsappTemplate.findMany({
    where: { tenantId: customer.tenantId, channelId: { in: channelIds }, status: "APPROVED" },
    select: templateSelect,
    orderBy: [{ name: "asc" }, { language: "asc" }, { channelId: "asc" }],
  });
  const seen = new Set<string>();
  return list.flatMap((t) => {
    const key = `${t.name}\u0000${t.language}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const { id: _id, channelId: _channel, status: _status, syncedAt: _at, ...rest } = toRow(t);
    return [rest];
  });
}

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
    select: templateSelect,
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
