import { Empty } from "antd";
import { UserType } from "../../../lib/user-type";
import { useSession } from "../../auth/context/session-context";
import { useWorkingTenant } from "../../tenant-switcher/working-tenant";
import type { TenantParam } from "../api";
import { messages } from "../messages";

export interface TenantScope {
  /** The signed-in user is a super admin (who must choose the tenant). */
  isSuper: boolean;
  /** The tenant the calls name: undefined for admins (their own) and for a super admin who chose none yet. */
  tenantId: TenantParam;
  /** A super admin has not chosen a working tenant yet: show `ChooseTenant` and nothing else. */
  missing: boolean;
}

/**
 * Settings pages act in the admin's own tenant; for a super admin in the working tenant chosen in the top
 * bar (features/tenant-switcher, also sent as the tenant-id header).
 */
export function useTenantScope(): TenantScope {
  const { user } = useSession();
  const isSuper = user.type === UserType.SUPER_ADMIN;
  const working = useWorkingTenant();
  const tenantId = isSuper ? working : undefined;
  return { isSuper, tenantId, missing: isSuper && tenantId === undefined };
}

export function ChooseTenant() {
  const t = messages.useT();
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("tenant.choose")} data-testid="settings-choose-tenant" />
  );
}
