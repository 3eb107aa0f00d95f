// Per-customer routing (interface action 1 set / 2 clear) and "API data transfer" (every route of channel A
// moves to channel B in one transaction). Routes are the admin's; which channel a message takes is decided
// by resolveChannels (channel-resolution.ts).
import {
  ActiveStatus,
  type ChannelRouteBody,
  type ChannelRouteItem,
  type ChannelRouteListQuery,
  type ChannelTransferBody,
  type ChannelTransferResult,
  InterfaceAction,
  inCountryScope,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { ALL_COUNTRIES } from "@switchboard/domain/routing";
import { badRequest, notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { actingTenant, findManagedCustomer, tenantWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { knownCountryCodes } from "../catalog/countries.service";
import { findOwnChannel } from "./channels.service";

type ScopedChannel = { name: string; countryScope: number; countryCodes: string[] };

/** 400 naming the countries a channel does not serve ("*" routes are always allowed: the scope decides per message). */
function assertChannelServes(channel: ScopedChannel, countryCodes: readonly string[]) {
  const outside = countryCodes.filter(
    (c) => c !== ALL_COUNTRIES && !inCountryScope(channel.countryScope, channel.countryCodes, c),
  );
  if (outside.length > 0)
    throw badRequest("channel.outside_scope", { channel: channel.name, codes: outside.join(", ") });
}

async function findOwnProduct(db: Db, tenantId: number, productId: number) {
  const product = await db.product.findFirst({
    where: { id: productId, tenantId },
    select: { id: true, name: true, code: true },
  });
  if (!product) throw notFound("entity.product");
  return product;
}

/**
 * Action 1 points the customer's product (in the listed countries, or "*" = all) at a channel of the same
 * product code. Action 2 removes the listed countries' routes, or without a list every route of the customer
 * for the product, so routing falls back to the product's default channel.
 */
export async function setRoute(prisma: PrismaClient, p: Principal, body: ChannelRouteBody) {
  const tenantId = actingTenant(p);
  const customer = await findManagedCustomer(prisma, p, body.userId, { id: true });
  const product = await findOwnProduct(prisma, tenantId, body.productId);
  const countries = body.countryCodes ? await knownCountryCodes(prisma, body.countryCodes) : [ALL_COUNTRIES];
  const where = { userId: customer.id, productId: product.id, countryCode: { in: countries } };

  if (body.action === InterfaceAction.CLEAR) {
    const { count } = await prisma.channelRoute.deleteMany({
      where: body.countryCodes ? where : { userId: customer.id, productId: product.id },
    });
    return { action: body.action, routes: count };
  }

  const channel = await findOwnChannel(prisma, p, body.channelId!);
  if (channel.productCode !== product.code) {
    throw badRequest("channel.product_mismatch", {
      channel: channel.name,
      channelCode: channel.productCode,
      product: product.name,
      productCode: product.code,
    });
  }
  assertChannelServes(channel, countries);
  await prisma.$transaction(async (tx) => {
    await tx.channelRoute.createMany({
      data: countries.map((countryCode) => ({
        tenantId,
        userId: customer.id,
        productId: product.id,
        countryCode,
        channelId: channel.id,
        updatedById: p.userId,
      })),
      skipDuplicates: true,
    });
    await tx.channelRoute.updateMany({ where, data: { channelId: channel.id, updatedById: p.userId } });
  });
  return { action: body.action, routes: countries.length };
}

export async function listRoutes(db: Db, p: Principal, q: ChannelRouteListQuery) {
  const where: Prisma.ChannelRouteWhereInput = {
    ...tenantWhere(p),
    userId: q.userId,
    channelId: q.channelId,
    productId: q.productId,
    user: { deletedAt: null },
  };
  const [rows, total] = await Promise.all([
    db.channelRoute.findMany({
      where,
      select: {
        id: true,
        userId: true,
        productId: true,
        countryCode: true,
        channelId: true,
        updatedAt: true,
        user: { select: { username: true } },
        product: { select: { code: true, name: true } },
        channel: { select: { name: true, status: true } },
      },
      orderBy: [{ userId: "asc" }, { productId: "asc" }, { countryCode: "asc" }],
      ...pageArgs(q),
    }),
    db.channelRoute.count({ where }),
  ]);
  const list = rows.map(
    (r): ChannelRouteItem => ({
      id: r.id,
      userId: r.userId,
      username: r.user.username,
      productId: r.productId,
      productCode: r.product.code,
      productName: r.product.name,
      countryCode: r.countryCode,
      channelId: r.channelId,
      channelName: r.channel.name,
      channelStatus: r.channel.status,
      updatedAt: r.updatedAt.toISOString(),
    }),
  );
  return { list, total };
}

const pairKey = (r: { userId: number; productId: number }) => `${r.userId}:${r.productId}`;

/**
 * Moves every route of channel A to channel B (same product code, B active, B serving every per-country route's
 * country) in one transaction. A per-country route whose customer's all-countries route ends up on B too would
 * only repeat it, so it is folded into it (deleted, counted as merged).
 */
export async function transferRoutes(prisma: PrismaClient, p: Principal, body: ChannelTransferBody) {
  if (body.fromChannelId === body.toChannelId) throw badRequest("channel.transfer_same");
  const tenantId = actingTenant(p);
  const from = await findOwnChannel(prisma, p, body.fromChannelId);
  const to = await findOwnChannel(prisma, p, body.toChannelId);
  if (from.productCode !== to.productCode) {
    throw badRequest("channel.transfer_mismatch", {
      from: from.name,
      fromCode: from.productCode,
      to: to.name,
      toCode: to.productCode,
    });
  }
  if (to.status !== ActiveStatus.NORMAL) throw badRequest("channel.transfer_target_paused", { channel: to.name });

  return prisma.$transaction(async (tx): Promise<ChannelTransferResult> => {
    const routes = await tx.channelRoute.findMany({
      where: { channelId: from.id, tenantId },
      select: { id: true, userId: true, productId: true, countryCode: true },
    });
    assertChannelServes(to, [...new Set(routes.map((r) => r.countryCode))]);

    const userIds = [...new Set(routes.map((r) => r.userId))];
    const starsOnTarget = await tx.channelRoute.findMany({
      where: { channelId: to.id, countryCode: ALL_COUNTRIES, userId: { in: userIds } },
      select: { userId: true, productId: true },
    });
    const starAfter = new Set([
      ...starsOnTarget.map(pairKey),
      ...routes.filter((r) => r.countryCode === ALL_COUNTRIES).map(pairKey),
    ]);
    const foldIds = routes.filter((r) => r.countryCode !== ALL_COUNTRIES && starAfter.has(pairKey(r))).map((r) => r.id);

    const merged = await tx.channelRoute.deleteMany({ where: { id: { in: foldIds }, channelId: from.id } });
    const moved = await tx.channelRoute.updateMany({
      where: { channelId: from.id, tenantId },
      data: { channelId: to.id, updatedById: p.userId },
    });
    return { moved: moved.count, merged: merged.count, customers: userIds.length };
  });
}
