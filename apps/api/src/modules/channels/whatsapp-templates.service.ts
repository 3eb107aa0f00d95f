// WhatsApp message templates: an admin syncs a WS channel's templates from its business account (the whole set
// is replaced: a template deleted at Meta goes here too); customers list the approved ones their WS product can
// send. Where batches are made, a batch's template values are checked against them and a template message priced
// by its category (@switchboard/domain/batches/whatsapp-templates).
import { decryptSecrets } from "@switchboard/channels";
import { listTemplates, storedNeeds } from "@switchboard/channels/whatsapp";
import {
  type SendableTemplate,
  type TemplateSyncResult,
  type WhatsappChannelConfig,
  type WhatsappTemplateRow,
  whatsappTemplateButtons,
} from "@switchboard/contracts";
import type { Prisma, PrismaClient } from "@switchboard/db";
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
