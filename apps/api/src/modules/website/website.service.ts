// Website config (branding) and tenant resolution before sign-in, both by the request's host.
import { ActiveStatus, DEFAULT_SITE_TITLE, type WebsiteConfig } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors";
import { tenantHeader } from "../../plugins/auth";

/** Host without port, lower-cased; the Host header is client-controlled, so it is only ever used as a lookup key. */
export function requestHost(req: FastifyRequest): string {
  return (req.host ?? "").toLowerCase().replace(/:\d+$/, "").slice(0, 253);
}

/** The config of a host, once a super admin approved the host (a claim alone decides nothing). */
export async function findWebsiteConfigByHost(db: Db, host: string) {
  if (!host) return null;
  const site = await db.websiteConfig.findUnique({ where: { host } });
  return site?.hostApprovedAt ? site : null;
}

export interface PublicTenant {
  tenantId: number;
  /** The agent whose branding the host shows: registrations from it land under this agent. */
  agentId: number | null;
}

/**
 * The tenant of a request made before sign-in: the tenant-id header when it names an active tenant,
 * else the website config of the host. Null when neither says.
 */
export async function resolvePublicTenant(db: Db, req: FastifyRequest): Promise<PublicTenant | null> {
  const fromHeader = tenantHeader(req);
  const site = await findWebsiteConfigByHost(db, requestHost(req));
  if (fromHeader !== undefined) {
    const tenant = await db.tenant.findUnique({ where: { id: fromHeader }, select: { status: true } });
    if (!tenant || tenant.status !== ActiveStatus.NORMAL) throw new AppError(400, "error.tenant_unknown");
    // The host's agent branding only counts when it belongs to the same tenant.
    return { tenantId: fromHeader, agentId: site?.tenantId === fromHeader ? site.agentId : null };
  }
  if (!site) return null;
  return { tenantId: site.tenantId, agentId: site.agentId };
}

export function requirePublicTenant(t: PublicTenant | null): PublicTenant {
  if (!t) throw new AppError(400, "error.tenant_unknown");
  return t;
}

function absolute(base: string, path: string | null): string | null {
  if (!path) return null;
  if (/^https?:\/\//i.test(path)) return path;
  return `${base.replace(/\/$/, "")}/${path.replace(/^\//, "")}`;
}

/**
 * The tenant's mode (TenantSetting.international, true without a settings row) for the website config: of the
 * tenant-id header's tenant when it names an active one (a signed-in user's own tenant), else of the host's
 * tenant; undefined when neither names one.
 */
export async function tenantInternational(
  db: Db,
  req: FastifyRequest,
  hostTenantId: number | null,
): Promise<boolean | undefined> {
  let tenantId = hostTenantId;
  let fromHeader: number | undefined;
  try {
    fromHeader = tenantHeader(req);
  } catch {
    fromHeader = undefined; // a malformed header does not break the branding; the host decides
  }
  if (fromHeader !== undefined) {
    const tenant = await db.tenant.findUnique({ where: { id: fromHeader }, select: { status: true } });
    if (tenant?.status === ActiveStatus.NORMAL) tenantId = fromHeader;
  }
  if (tenantId === null) return undefined;
  const setting = await db.tenantSetting.findUnique({ where: { tenantId }, select: { international: true } });
  return setting?.international ?? true;
}

/** Agent branding first, then the tenant's, then the built-in default ('RCS message platform'). */
export async function websiteConfigFor(
  db: Db,
  req: FastifyRequest,
  publicBaseUrl: string | undefined,
): Promise<WebsiteConfig> {
  const base = publicBaseUrl ?? `${req.protocol}://${req.host}`;
  const site = await findWebsiteConfigByHost(db, requestHost(req));
  let config = site;
  if (site?.agentId) {
    // An agent's host shows the agent's branding; fields it leaves empty fall back to the tenant's.
    const tenantSite = await db.websiteConfig.findFirst({
      where: { tenantId: site.tenantId, agentId: null, hostApprovedAt: { not: null } },
      orderBy: { id: "asc" },
    });
    if (tenantSite) {
      config = {
        ...site,
        logo: site.logo ?? tenantSite.logo,
        logoSmall: site.logoSmall ?? tenantSite.logoSmall,
        description: site.description ?? tenantSite.description,
      };
    }
  }
  const international = await tenantInternational(db, req, config?.tenantId ?? null);
  const mode = international === undefined ? {} : { international };
  if (!config) {
    return {
      title: DEFAULT_SITE_TITLE,
      logo: null,
      logoSmall: null,
      description: null,
      agentId: null,
      tenantId: null,
      ...mode,
    };
  }
  return {
    ...mode,
    title: config.title || DEFAULT_SITE_TITLE,
    logo: absolute(base, config.logo),
    logoSmall: absolute(base, config.logoSmall),
    description: config.description,
    agentId: config.agentId,
    tenantId: config.tenantId,
  };
}
