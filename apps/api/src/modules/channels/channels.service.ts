// Channels (the admin's product/api page): provider connections with their settings, sealed credentials,
// throughput, country scope and status; the product's default channel; "test connection".

import { decryptSecrets, type EgressPolicy, encryptSecrets } from "@switchboard/channels";
import {
  type ChannelCreateBody,
  type ChannelDefaultBody,
  type ChannelEditBody,
  type ChannelItem,
  type ChannelKind,
  type ChannelListQuery,
  type ChannelStatusBody,
  KIND_PRODUCT_CODE,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { badRequest, notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { actingTenant, tenantWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";
import { normalizeCountryScope } from "../catalog/countries.service";
import { mergeSecrets, type PublicConfig, secretStates, splitConfig, withDerivedSettings } from "./channel-config";
import { testConnection } from "./channel-test";

export interface ChannelDeps {
  prisma: PrismaClient;
  /** The 32-byte CHANNEL_SECRET_KEY. */
  secretKey: Buffer;
  /** Where "test connection" may connect (EGRESS_ALLOW). */
  egress: EgressPolicy;
}

const channelSelect = {
  id: true,
  tenantId: true,
  name: true,
  kind: true,
  productCode: true,
  config: true,
  secrets: true,
  throughput: true,
  countryScope: true,
  countryCodes: true,
  status: true,
  createdAt: true,
  updatedAt: true,
  defaultProducts: { select: { id: true, name: true }, orderBy: { id: "asc" } },
  _count: { select: { routes: true } },
} satisfies Prisma.ChannelSelect;

type ChannelRow = Prisma.ChannelGetPayload<{ select: typeof channelSelect }>;

/** The response view: settings without credentials, and for each credential only whether it is set. */
function toChannelItem(row: ChannelRow, secretKey: Buffer): ChannelItem {
  const secrets = decryptSecrets(secretKey, row.tenantId, row.secrets);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    productCode: row.productCode,
    config: row.config as PublicConfig,
    secrets: secretStates(row.kind as ChannelKind, secrets),
    throughput: row.throughput,
    countryScope: row.countryScope,
    countryCodes: row.countryCodes,
    status: row.status,
    defaultFor: row.defaultProducts,
    routeCount: row._count.routes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A channel of the caller's tenant, or 404 exactly like a missing one. */
async function findChannel(db: Db, p: Principal, id: number): Promise<ChannelRow> {
  const row = await db.channel.findFirst({ where: { id, ...tenantWhere(p) }, select: channelSelect });
  if (!row) throw notFound("entity.channel");
  return row;
}

/** The same for writes: the channel must be in the tenant the caller acts in. */
export async function findOwnChannel(db: Db, p: Principal, id: number): Promise<ChannelRow> {
  const row = await db.channel.findFirst({ where: { id, tenantId: actingTenant(p) }, select: channelSelect });
  if (!row) throw notFound("entity.channel");
  return row;
}

export async function createChannel({ prisma, secretKey }: ChannelDeps, p: Principal, body: ChannelCreateBody) {
  const tenantId = actingTenant(p);
  const scope = await normalizeCountryScope(prisma, body.countryScope, body.countryCodes);
  const { publicConfig, given } = splitConfig(body.kind, body.config);
  const secrets = mergeSecrets(body.kind, publicConfig, {}, given);
  const row = await prisma.channel.create({
    data: {
      tenantId,
      name: body.name,
      kind: body.kind,
      productCode: KIND_PRODUCT_CODE[body.kind],
      config: withDerivedSettings(body.kind, publicConfig, secrets) as Prisma.InputJsonObject,
      secrets: encryptSecrets(secretKey, tenantId, secrets),
      throughput: body.throughput,
      ...scope,
    },
    select: channelSelect,
  });
  return toChannelItem(row, secretKey);
}

export async function editChannel({ prisma, secretKey }: ChannelDeps, p: Principal, body: ChannelEditBody) {
  const row = await findOwnChannel(prisma, p, body.id);
  if (row.kind !== body.kind) throw badRequest("channel.kind_immutable", { kind: row.kind });
  const data: Prisma.ChannelUpdateInput = { name: body.name, throughput: body.throughput };
  if (body.countryScope !== undefined) {
    Object.assign(data, await normalizeCountryScope(prisma, body.countryScope, body.countryCodes ?? []));
  }
  if (body.config !== undefined) {
    const stored = decryptSecrets(secretKey, row.tenantId, row.secrets);
    const { publicConfig, given } = splitConfig(body.kind, body.config);
    const secrets = mergeSecrets(body.kind, publicConfig, stored, given);
    data.config = withDerivedSettings(body.kind, publicConfig, secrets) as Prisma.InputJsonObject;
    data.secrets = encryptSecrets(secretKey, row.tenantId, secrets);
  }
  const updated = await prisma.channel.update({ where: { id: row.id }, data, select: channelSelect });
  return toChannelItem(updated, secretKey);
}

export async function listChannels({ prisma, secretKey }: ChannelDeps, p: Principal, q: ChannelListQuery) {
  const keyword = q.keyword?.trim();
  const where: Prisma.ChannelWhereInput = {
    ...tenantWhere(p),
    kind: q.kind,
    productCode: q.productCode,
    status: q.status,
    ...(keyword ? { name: { contains: keyword, mode: "insensitive" } } : {}),
  };
  const [rows, total] = await Promise.all([
    prisma.channel.findMany({ where, select: channelSelect, orderBy: { id: "asc" }, ...pageArgs(q) }),
    prisma.channel.count({ where }),
  ]);
  const tenantOf = await tenantNamesFor(
    prisma,
    p,
    rows.map((r) => r.tenantId),
  );
  return { list: rows.map((r) => ({ ...toChannelItem(r, secretKey), ...tenantOf(r.tenantId) })), total };
}

export async function channelDetail({ prisma, secretKey }: ChannelDeps, p: Principal, id: number) {
  return toChannelItem(await findChannel(prisma, p, id), secretKey);
}

/** Conditional update: only a channel in the other status changes; asking for the current status is a no-op. */
export async function setChannelStatus({ prisma, secretKey }: ChannelDeps, p: Principal, body: ChannelStatusBody) {
  const row = await findOwnChannel(prisma, p, body.id);
  await prisma.channel.updateMany({
    where: { id: row.id, status: { not: body.status } },
    data: { status: body.status },
  });
  return toChannelItem(await findOwnChannel(prisma, p, row.id), secretKey);
}

/** The product's default channel (Product.defaultChannelId); the channel must carry the product's code. */
export async function setDefaultChannel({ prisma, secretKey }: ChannelDeps, p: Principal, body: ChannelDefaultBody) {
  const channel = await findOwnChannel(prisma, p, body.channelId);
  const product = await prisma.product.findFirst({
    where: { id: body.productId, tenantId: actingTenant(p) },
    select: { id: true, name: true, code: true },
  });
  if (!product) throw notFound("entity.product");
  if (product.code !== channel.productCode) {
    throw badRequest("channel.product_mismatch", {
      channel: channel.name,
      channelCode: channel.productCode,
      product: product.name,
      productCode: product.code,
    });
  }
  await prisma.product.update({ where: { id: product.id }, data: { defaultChannelId: channel.id } });
  return toChannelItem(await findOwnChannel(prisma, p, channel.id), secretKey);
}

export async function testChannel({ prisma, secretKey, egress }: ChannelDeps, p: Principal, id: number) {
  const row = await findOwnChannel(prisma, p, id);
  const secrets = decryptSecrets(secretKey, row.tenantId, row.secrets);
  return testConnection(row.kind as ChannelKind, row.config as PublicConfig, secrets, egress);
}
