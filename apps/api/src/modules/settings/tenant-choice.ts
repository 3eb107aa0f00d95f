// The tenant a settings call acts in: an admin's own; a super admin's chosen one (the tenantId field or the
// tenant-id header). Another tenant named by an admin answers like a tenant that does not exist.
import { UserType } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { AppError, notFound } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";

export async function settingsTenant(db: Db, p: Principal, requested: number | undefined): Promise<number> {
  if (p.type !== UserType.SUPER_ADMIN) {
    if (p.tenantId === null) throw new AppError(400, "error.tenant_required");
    if (requested !== undefined && requested !== p.tenantId) throw notFound("entity.tenant");
    return p.tenantId;
  }
  const tenantId = requested ?? p.tenantId;
  if (tenantId === null) throw new AppError(400, "error.tenant_required");
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw notFound("entity.tenant");
  return tenantId;
}
