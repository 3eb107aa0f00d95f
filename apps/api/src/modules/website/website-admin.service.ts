// Website configs (branding by host) managed by a tenant's admin, or a super admin for a chosen tenant, and
// their logos: uploaded images (PNG/JPG by content) stored under UPLOAD_DIR/website/<tenantId>/ and served
// publicly by GET /website/logo/<tenantId>/<name> (logos appear on the sign-in pages, before any session).
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
import type { FastifyBaseLogger } from "fastify";
import { badRequest, conflict, notFound } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";
import { removeStored, storedPath, storeUpload, type UploadedFile } from "../../plugins/uploads";
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

/** Creates (no id) or replaces (id of this tenant's config, else 404) a website config. */
export async function saveWebsiteConfig(
  prisma: PrismaClient,
  p: Principal,
  body: WebsiteSaveBody,
  base: string,
  uploadDir: string,
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
  const data = {
    host: body.host,
    title: body.title,
    description: body.description,
    logo: body.logo ?? null,
    logoSmall: body.logoSmall ?? null,
    agentId: body.agentId ?? null,
  };
  let before: { logo: string | null; logoSmall: string | null } | null = null;
  let row: RowData;
  try {
    if (body.id === undefined) {
      row = await prisma.websiteConfig.create({ data: { tenantId, ...data }, select: rowSelect });
    } else {
      const id = body.id;
      [before, row] = await prisma.$transaction(async (tx) => {
        const old = await tx.websiteConfig.findFirst({
          where: { id, tenantId },
          select: { logo: true, logoSmall: true },
        });
        if (!old) throw notFound("entity.website_config");
        return [old, await tx.websiteConfig.update({ where: { id }, data, select: rowSelect })] as const;
      });
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("website.host_taken", { host: body.host });
    throw err;
  }
  if (before) await removeUnusedLogos(prisma, uploadDir, [before.logo, before.logoSmall], log);
  return toRow(row, base);
}

export async function deleteWebsiteConfig(
  prisma: PrismaClient,
  p: Principal,
  body: WebsiteDeleteBody,
  uploadDir: string,
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
  await removeUnusedLogos(prisma, uploadDir, [row.logo, row.logoSmall], log);
  return null;
}

/** Removes uploaded logo files no config points at any more (best effort: a failure is only logged). */
async function removeUnusedLogos(db: Db, uploadDir: string, paths: (string | null)[], log: FastifyBaseLogger) {
  const candidates = [...new Set(paths.filter((x): x is string => !!x && WEBSITE_LOGO_PATH.test(x)))];
  const unused: string[] = [];
  for (const path of candidates) {
    const used = await db.websiteConfig.count({ where: { OR: [{ logo: path }, { logoSmall: path }] } });
    if (used === 0) unused.push(storedRel(path));
  }
  const errors = await removeStored(uploadDir, unused);
  for (const err of errors) log.warn({ err }, "could not remove an unused website logo");
}

/** UPLOAD_DIR-relative location of a public logo path. */
function storedRel(publicPath: string): string {
  const m = WEBSITE_LOGO_PATH.exec(publicPath);
  if (!m) throw new Error(`not a logo path: ${publicPath}`);
  return `${LOGO_FOLDER}/${m[1]}/${m[2]}`;
}

/** Stores an uploaded logo for the tenant and answers its public path. */
export async function storeLogo(
  db: Db,
  p: Principal,
  requested: number | undefined,
  file: UploadedFile,
  uploadDir: string,
  base: string,
): Promise<WebsiteLogoResult> {
  const tenantId = await settingsTenant(db, p, requested);
  const rel = await storeUpload(uploadDir, [LOGO_FOLDER, String(tenantId)], file);
  const publicPath = `/website/logo/${tenantId}/${rel.split("/").pop()}`;
  return { path: publicPath, url: absolute(base, publicPath) ?? publicPath };
}

/** Absolute file of a public logo path, or 404 for anything that is not one. */
export function logoFile(uploadDir: string, tenantId: string, name: string): { path: string; kind: "png" | "jpg" } {
  const publicPath = `/website/logo/${tenantId}/${name}`;
  if (!WEBSITE_LOGO_PATH.test(publicPath)) throw notFound("entity.website_logo");
  return { path: storedPath(uploadDir, storedRel(publicPath)), kind: name.endsWith(".png") ? "png" : "jpg" };
}
