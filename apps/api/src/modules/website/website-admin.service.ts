// Website configs (branding by host) managed by a tenant's admin, or a super admin for a chosen tenant, and
// their logos: uploaded images (PNG/JPG by content) stored as website/<tenantId>/... (app.storage: under
// UPLOAD_DIR, or an S3 bucket) and served
// publicly by GET /website/logo/<tenantId>/<name> (logos appear on the sign-in pages, before any session).
//
// A host decides the tenant of everything before sign-in (branding, sign-in, registration), so it is a
// platform-wide identity: a tenant admin's new or changed host waits for a super admin's approval (a save by a
// super admin approves) and resolves nothing until then; a host held by any config answers a tenant admin
// "not available", naming nobody (docs/decisions.md, "Website hosts").
import {
  UserType,
  WEBSITE_LOGO_PATH,
  type WebsiteConfigList,
  type WebsiteConfigRow,
  type WebsiteDeleteBody,
  type WebsiteLogoResult,
  type WebsiteSaveBody,
} from "@switchboard/contracts";
import { type Db, Prisma, type PrismaClient } from "@switchboard/db";
import type { FileStorage } from "@switchboard/domain/storage";
import type { FastifyBaseLogger } from "fastify";
import { AppError, badRequest, conflict, notFound } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";
import { removeStored, storeUpload, type UploadedFile } from "../../plugins/uploads";
import { settingsTenant } from "../settings/tenant-choice";

const LOGO_FOLDER = "website";

const rowSelect = {
  id: true,
  tenantId: true,
  host: true,
  title: true,
  description: true,
  logo: true,
  logoSmall: true,
  agentId: true,
  agent: { select: { username: true } },
  hostApprovedAt: true,
  updatedAt: true,
} satisfies Prisma.WebsiteConfigSelect;
type RowData = Prisma.WebsiteConfigGetPayload<{ select: typeof rowSelect }>;

function absolute(base: string, p: string | null): string | null {
  if (!p) return null;
  if (/^https?:\/\//i.test(p)) return p;
  return `${base.replace(/\/$/, "")}/${p.replace(/^\//, "")}`;
}

function toRow(r: RowData, base: string): WebsiteConfigRow {
  return {
    id: r.id,
    tenantId: r.tenantId,
    host: r.host,
    title: r.title,
    description: r.description,
    logo: r.logo,
    logoUrl: absolute(base, r.logo),
    logoSmall: r.logoSmall,
    logoSmallUrl: absolute(base, r.logoSmall),
    agentId: r.agentId,
    agentUser: r.agent?.username ?? null,
    hostApprovedAt: r.hostApprovedAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function listWebsiteConfigs(
  db: Db,
  p: Principal,
  requested: number | undefined,
  base: string,
): Promise<WebsiteConfigList> {
  const tenantId = await settingsTenant(db, p, requested);
  const rows = await db.websiteConfig.findMany({ where: { tenantId }, select: rowSelect, orderBy: { id: "asc" } });
  return { list: rows.map((r) => toRow(r, base)), total: rows.length };
}

/** A logo path of this tenant's uploads (the contract checked the shape), or 400. */
function requireOwnLogo(tenantId: number, logo: string | null | undefined) {
  if (!logo) return;
  const m = WEBSITE_LOGO_PATH.exec(logo);
  if (!m || Number(m[1]) !== tenantId) throw badRequest("website.logo_foreign");
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** A logo path the config does not hold yet must name a stored upload (a swept one is gone). */
async function requireStoredLogo(storage: FileStorage, logo: string) {
  if (!(await storage.stat(storedRel(logo)))) throw badRequest("website.logo_missing");
}

interface HostState {
  host: string;
  hostApprovedAt: Date | null;
}

/**
 * The approval a saved config's host has: an approved host kept as it was stays approved; a super admin's save
 * approves; a tenant admin's new or changed host waits for a super admin.
 */
function hostApproval(p: Principal, host: string, old: HostState | null): Date | null {
  if (old && old.host === host && old.hostApprovedAt) return old.hostApprovedAt;
  return p.type === UserType.SUPER_ADMIN ? new Date() : null;
}

/**
 * The 409 for a host some config holds. A super admin (who sees every tenant) is told which config, to change
 * or delete it and so reassign the host; anyone else only that it is not available, whoever holds it.
 */
async function hostConflict(db: Db, p: Principal, host: string) {
  if (p.type !== UserType.SUPER_ADMIN) return conflict("website.host_unavailable");
  const holder = await db.websiteConfig.findUnique({
    where: { host },
    select: { id: true, tenant: { select: { code: true } } },
  });
  if (!holder) return conflict("website.host_unavailable");
  return conflict("website.host_held", { host, id: holder.id, tenant: holder.tenant.code });
}

/** Creates (no id) or replaces (id of this tenant's config, else 404) a website config. */
export async function saveWebsiteConfig(
  prisma: PrismaClient,
  p: Principal,
  body: WebsiteSaveBody,
  base: string,
  storage: FileStorage,
  log: FastifyBaseLogger,
): Promise<WebsiteConfigRow> {
  const tenantId = await settingsTenant(prisma, p, body.tenantId);
  requireOwnLogo(tenantId, body.logo);
  requireOwnLogo(tenantId, body.logoSmall);
  if (body.agentId !== undefined && body.agentId !== null) {
    const agent = await prisma.user.findFirst({
      where: { id: body.agentId, tenantId, type: UserType.AGENT, deletedAt: null },
      select: { id: true },
    });
    if (!agent) throw notFound("entity.agent");
  }
  const fields = {
    host: body.host,
    title: body.title,
    description: body.description,
    logo: body.logo ?? null,
    logoSmall: body.logoSmall ?? null,
    agentId: body.agentId ?? null,
  };
  let before: { logo: string | null; logoSmall: string | null } | null;
  let row: RowData;
  try {
    [before, row] = await prisma.$transaction(async (tx) => {
      let old: (HostState & { logo: string | null; logoSmall: string | null }) | null = null;
      if (body.id !== undefined) {
        // Locked: the approval is decided on the row as it is, not as a concurrent save is leaving it.
        const locked = await tx.$queryRaw<Array<{ id: number }>>`
          SELECT id FROM website_configs WHERE id = ${body.id} AND "tenantId" = ${tenantId} FOR UPDATE`;
        if (locked.length === 0) throw notFound("entity.website_config");
        old = await tx.websiteConfig.findUniqueOrThrow({
          where: { id: body.id },
          select: { host: true, hostApprovedAt: true, logo: true, logoSmall: true },
        });
      }
      for (const logo of [fields.logo, fields.logoSmall]) {
        if (logo && logo !== old?.logo && logo !== old?.logoSmall) await requireStoredLogo(storage, logo);
      }
      const data = { ...fields, hostApprovedAt: hostApproval(p, body.host, old) };
      const saved =
        body.id === undefined
          ? await tx.websiteConfig.create({ data: { tenantId, ...data }, select: rowSelect })
          : await tx.websiteConfig.update({ where: { id: body.id }, data, select: rowSelect });
      return [old, saved] as const;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw await hostConflict(prisma, p, body.host);
    throw err;
  }
  if (before) await removeUnusedLogos(prisma, storage, [before.logo, before.logoSmall], log);
  return toRow(row, base);
}

export async function deleteWebsiteConfig(
  prisma: PrismaClient,
  p: Principal,
  body: WebsiteDeleteBody,
  storage: FileStorage,
  log: FastifyBaseLogger,
): Promise<null> {
  const tenantId = await settingsTenant(prisma, p, body.tenantId);
  const row = await prisma.websiteConfig.findFirst({
    where: { id: body.id, tenantId },
    select: { id: true, logo: true, logoSmall: true },
  });
  if (!row) throw notFound("entity.website_config");
  const gone = await prisma.websiteConfig.deleteMany({ where: { id: row.id, tenantId } });
  if (gone.count === 0) throw notFound("entity.website_config");
  await removeUnusedLogos(prisma, storage, [row.logo, row.logoSmall], log);
  return null;
}

/** Removes uploaded logo files no config points at any more (best effort: a failure is only logged). */
async function removeUnusedLogos(db: Db, storage: FileStorage, paths: (string | null)[], log: FastifyBaseLogger) {
  const candidates = [...new Set(paths.filter((x): x is string => !!x && WEBSITE_LOGO_PATH.test(x)))];
  const unused: string[] = [];
  for (const path of candidates) {
    const used = await db.websiteConfig.count({ where: { OR: [{ logo: path }, { logoSmall: path }] } });
    if (used === 0) unused.push(storedRel(path));
  }
  const errors = await removeStored(storage, unused);
  for (const err of errors) log.warn({ err }, "could not remove an unused website logo");
}

/** Storage key (UPLOAD_DIR-relative path) of a public logo path. */
function storedRel(publicPath: string): string {
  const m = WEBSITE_LOGO_PATH.exec(publicPath);
  if (!m) throw new Error(`not a logo path: ${publicPath}`);
  return `${LOGO_FOLDER}/${m[1]}/${m[2]}`;
}

/** Uploaded logos no config uses are kept this long for the config that will use them, then removed. */
export const LOGO_GRACE_MS = 24 * 60 * 60 * 1000;
/** Uploads a tenant may have waiting for a config at once. */
export const MAX_PENDING_LOGOS = 20;

/**
 * Removes the tenant's uploaded logos that no config uses and that are older than the grace period; answers
 * how many unused ones are younger (waiting for their config). Runs at each upload, so a tenant's unused
 * uploads never outnumber MAX_PENDING_LOGOS plus those of its last day.
 */
export async function sweepUnusedLogos(
  db: Db,
  storage: FileStorage,
  tenantId: number,
  log: FastifyBaseLogger,
  now = Date.now(),
): Promise<number> {
  const folder = `${LOGO_FOLDER}/${tenantId}/`;
  const files = new Map<string, Date>();
  for (const f of await storage.list(folder)) {
    const publicPath = `/website/logo/${tenantId}/${f.key.slice(folder.length)}`;
    if (WEBSITE_LOGO_PATH.test(publicPath)) files.set(publicPath, f.modifiedAt);
  }
  const paths = [...files.keys()];
  if (paths.length === 0) return 0;
  const users = await db.websiteConfig.findMany({
    where: { OR: [{ logo: { in: paths } }, { logoSmall: { in: paths } }] },
    select: { logo: true, logoSmall: true },
  });
  const used = new Set(users.flatMap((u) => [u.logo, u.logoSmall]));
  const stale: string[] = [];
  let waiting = 0;
  for (const path of paths) {
    if (used.has(path)) continue;
    if (now - (files.get(path) as Date).getTime() > LOGO_GRACE_MS) stale.push(storedRel(path));
    else waiting += 1;
  }
  const errors = await removeStored(storage, stale);
  for (const err of errors) log.warn({ err }, "could not remove an unused website logo");
  return waiting;
}

/** Stores an uploaded logo for the tenant and answers its public path. */
export async function storeLogo(
  db: Db,
  p: Principal,
  requested: number | undefined,
  file: UploadedFile,
  storage: FileStorage,
  base: string,
  log: FastifyBaseLogger,
): Promise<WebsiteLogoResult> {
  const tenantId = await settingsTenant(db, p, requested);
  const waiting = await sweepUnusedLogos(db, storage, tenantId, log);
  if (waiting >= MAX_PENDING_LOGOS)
    throw new AppError(429, "website.logos_pending_too_many", { max: MAX_PENDING_LOGOS });
  const rel = await storeUpload(storage, [LOGO_FOLDER, String(tenantId)], file);
  const publicPath = `/website/logo/${tenantId}/${rel.split("/").pop()}`;
  return { path: publicPath, url: absolute(base, publicPath) ?? publicPath };
}

/** Storage key of a public logo path, or 404 for anything that is not one. */
export function logoFile(tenantId: string, name: string): { key: string; kind: "png" | "jpg" } {
  const publicPath = `/website/logo/${tenantId}/${name}`;
  if (!WEBSITE_LOGO_PATH.test(publicPath)) throw notFound("entity.website_logo");
  return { key: storedRel(publicPath), kind: name.endsWith(".png") ? "png" : "jpg" };
}
