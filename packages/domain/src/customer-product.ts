// The start of every per-customer resolution (price, channel): the customer's tenant and the product, which
// must be of that tenant and active. Failures are the reasons both resolvers report.
import { ActiveStatus } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";

export type CustomerProductFailure = "customer_not_found" | "product_not_found" | "product_paused";

export interface CustomerProduct {
  tenantId: number;
  product: { countryScope: number; countryCodes: string[]; defaultChannelId: number | null };
}

export type CustomerProductResult =
  | { ok: true; value: CustomerProduct }
  | { ok: false; reason: CustomerProductFailure };

/** What a caller that resolved the pair already hands to the resolvers (price, channel), saving their lookup. */
export interface KnownCustomerProduct {
  /** activeProductOfCustomer's answer for the same customer and product. */
  known?: CustomerProductResult | undefined;
}

export async function activeProductOfCustomer(
  db: Db,
  customerId: number,
  productId: number,
): Promise<CustomerProductResult> {
  const customer = await db.user.findFirst({ where: { id: customerId, deletedAt: null }, select: { tenantId: true } });
  if (!customer?.tenantId) return { ok: false, reason: "customer_not_found" };
  const product = await db.product.findFirst({
    where: { id: productId, tenantId: customer.tenantId },
    select: { status: true, countryScope: true, countryCodes: true, defaultChannelId: true },
  });
  if (!product) return { ok: false, reason: "product_not_found" };
  if (product.status !== ActiveStatus.NORMAL) return { ok: false, reason: "product_paused" };
  return { ok: true, value: { tenantId: customer.tenantId, product } };
}
