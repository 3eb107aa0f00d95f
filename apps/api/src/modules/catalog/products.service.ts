// Products (the admin's product/list page, "product create" and "product category and country edit" modals).
// Admins see and change their tenant's products; agents and customers see the active ones (their screens
// pick a product to send or price), customers with whether a channel carries each one for them.
import {
  ActiveStatus,
  type Lang,
  type ProductCountriesBody,
  type ProductCreateBody,
  type ProductEditBody,
  type ProductItem,
  type ProductListQuery,
  type ProductStatusBody,
  translate,
  UserType,
} from "@switchboard/contracts";
import type { Db, Prisma } from "@switchboard/db";
import { PRODUCT_UNSENDABLE_MESSAGE, productSendability } from "@switchboard/domain/routing";
import { notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { actingTenant, tenantWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { normalizeCountryScope } from "./countries.service";

const productSelect = {
  id: true,
  tenantId: true,
  code: true,
  name: true,
  category: true,
  status: true,
  countryScope: true,
  countryCodes: true,
  defaultChannelId: true,
  defaultChannel: { select: { name: true } },
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.ProductSelect;

export type ProductRow = Prisma.ProductGetPayload<{ select: typeof productSelect }>;

const isAdmin = (p: Principal) => p.type === UserType.ADMIN || p.type === UserType.SUPER_ADMIN;

export function toProductItem(row: ProductRow, withChannel: boolean): ProductItem {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    category: row.category,
    status: row.status,
    countryScope: row.countryScope,
    countryCodes: row.countryCodes,
    ...(withChannel
      ? { defaultChannelId: row.defaultChannelId, defaultChannelName: row.defaultChannel?.name ?? null }
      : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A product of the caller's tenant (any status), or 404 exactly like a missing one. */
export async function findProduct(db: Db, p: Principal, productId: number): Promise<ProductRow> {
  const row = await db.product.findFirst({ where: { id: productId, ...tenantWhere(p) }, select: productSelect });
  if (!row) throw notFound("entity.product");
  return row;
}

/** The same for writes: the product must be in the tenant the caller acts in. */
async function findOwnProduct(db: Db, p: Principal, productId: number): Promise<ProductRow> {
  const row = await db.product.findFirst({
    where: { id: productId, tenantId: actingTenant(p) },
    select: productSelect,
  });
  if (!row) throw notFound("entity.product");
  return row;
}

export async function listProducts(db: Db, p: Principal, q: ProductListQuery, lang: Lang) {
  const admin = isAdmin(p);
  const keyword = q.keyword?.trim();
  const where: Prisma.ProductWhereInput = {
    ...tenantWhere(p),
    ...(q.code ? { code: q.code } : {}),
    // agents and customers only ever see what they can use
    status: admin ? q.status : ActiveStatus.NORMAL,
    ...(keyword
      ? {
          OR: [
            { name: { contains: keyword, mode: "insensitive" } },
            { category: { contains: keyword, mode: "insensitive" } },
          ],
        }
      : {}),
  };
  const [rows, total] = await Promise.all([
    db.product.findMany({ where, select: productSelect, orderBy: [{ code: "asc" }, { id: "asc" }], ...pageArgs(q) }),
    db.product.count({ where }),
  ]);
  const list = rows.map((r) => toProductItem(r, admin));
  if (p.type !== UserType.USER) return { list, total };
  const states = await productSendability(db, p.userId, rows);
  return {
    list: list.map((item) => {
      const state = states.get(item.id);
      return {
        ...item,
        sendable: state?.ok ?? false,
        unavailableReason:
          state && !state.ok ? translate(lang, PRODUCT_UNSENDABLE_MESSAGE[state.reason], { product: item.name }) : null,
      };
    }),
    total,
  };
}

export async function createProduct(db: Db, p: Principal, body: ProductCreateBody) {
  const tenantId = actingTenant(p);
  const scope = await normalizeCountryScope(db, body.countryScope, body.countryCodes);
  const row = await db.product.create({
    data: { tenantId, code: body.code, name: body.name, category: body.category, ...scope },
    select: productSelect,
  });
  return toProductItem(row, true);
}

export async function editProduct(db: Db, p: Principal, body: ProductEditBody) {
  const row = await findOwnProduct(db, p, body.id);
  const updated = await db.product.update({
    where: { id: row.id },
    data: { name: body.name, category: body.category },
    select: productSelect,
  });
  return toProductItem(updated, true);
}

/** Conditional update: only a product in the other status changes; asking for the current status is a no-op. */
export async function setProductStatus(db: Db, p: Principal, body: ProductStatusBody) {
  const row = await findOwnProduct(db, p, body.id);
  await db.product.updateMany({
    where: { id: row.id, status: { not: body.status } },
    data: { status: body.status },
  });
  return toProductItem(await findOwnProduct(db, p, body.id), true);
}

export async function setProductCountries(db: Db, p: Principal, body: ProductCountriesBody) {
  const row = await findOwnProduct(db, p, body.id);
  const scope = await normalizeCountryScope(db, body.countryScope, body.countryCodes);
  const updated = await db.product.update({ where: { id: row.id }, data: scope, select: productSelect });
  return toProductItem(updated, true);
}
