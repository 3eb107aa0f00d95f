// GET /v1/products: the active products of the key's customer's tenant, each with whether it can send for this
// customer now (the customer app's product list answers the same: productSendability), so a developer's system
// knows which product codes to submit with before a batch is refused.
import { ActiveStatus, type Lang, translate, type V1ProductList } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { PRODUCT_UNSENDABLE_MESSAGE, productSendability } from "@switchboard/domain/routing";
import type { Principal } from "../../plugins/auth";

export async function listProductsV1(db: Db, p: Principal, lang: Lang): Promise<V1ProductList> {
  // A tenant has a handful of products (one per kind and a few variants): one answer, no paging.
  const rows = await db.product.findMany({
    where: { tenantId: p.homeTenantId ?? -1, status: ActiveStatus.NORMAL },
    select: {
      id: true,
      tenantId: true,
      code: true,
      name: true,
      category: true,
      countryScope: true,
      countryCodes: true,
      defaultChannelId: true,
    },
    orderBy: [{ code: "asc" }, { id: "asc" }],
  });
  const states = await productSendability(db, p.userId, rows);
  const list = rows.map((r) => {
    const state = states.get(r.id);
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      category: r.category,
      countryScope: r.countryScope,
      countryCodes: r.countryCodes,
      sendable: state?.ok ?? false,
      unavailableReason:
        state && !state.ok ? translate(lang, PRODUCT_UNSENDABLE_MESSAGE[state.reason], { product: r.name }) : null,
    };
  });
  return { list, total: list.length };
}
