// SMS templates of a tenant (texts the platform sends by SMS) and the records of the SMS it sent.
// Rows of another tenant answer like missing ones; phone numbers leave this file masked.
import {
  maskPhone,
  type SmsRecordList,
  type SmsRecordListQuery,
  type SmsTemplateCreateBody,
  type SmsTemplateEditBody,
  type SmsTemplateIdBody,
  type SmsTemplateList,
  type SmsTemplateListQuery,
  type SmsTemplateRow,
  type SmsTemplateStatusBody,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { conflict, notFound } from "../../lib/errors";
import { containing, createdBetween, pageArgs } from "../../lib/listing";
import type { Principal } from "../../plugins/auth";
import { settingsTenant } from "../settings/tenant-choice";

const templateSelect = {
  id: true,
  tenantId: true,
  scene: true,
  name: true,
  content: true,
  status: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.SmsTemplateSelect;
type TemplateData = Prisma.SmsTemplateGetPayload<{ select: typeof templateSelect }>;

function toTemplateRow(t: TemplateData): SmsTemplateRow {
  return { ...t, createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString() };
}

export async function listSmsTemplates(db: Db, p: Principal, q: SmsTemplateListQuery): Promise<SmsTemplateList> {
  const tenantId = await settingsTenant(db, p, q.tenantId);
  const keyword = containing(q.keyword);
  const where: Prisma.SmsTemplateWhereInput = {
    tenantId,
    scene: q.scene,
    status: q.status,
    ...(keyword ? { OR: [{ name: keyword }, { content: keyword }] } : {}),
  };
  const [rows, total] = await Promise.all([
    db.smsTemplate.findMany({ where, select: templateSelect, orderBy: [{ id: "desc" }], ...pageArgs(q) }),
    db.smsTemplate.count({ where }),
  ]);
  return { list: rows.map(toTemplateRow), total };
}

export async function createSmsTemplate(db: Db, p: Principal, body: SmsTemplateCreateBody): Promise<SmsTemplateRow> {
  const tenantId = await settingsTenant(db, p, body.tenantId);
  const row = await db.smsTemplate.create({
    data: { tenantId, scene: body.scene, name: body.name, content: body.content, status: body.status },
    select: templateSelect,
  });
  return toTemplateRow(row);
}

/** One conditional update (id and tenant), so another tenant's template answers 404 and nothing changes. */
async function updateInTenant(
  db: Db,
  tenantId: number,
  id: number,
  data: Prisma.SmsTemplateUpdateManyMutationInput,
): Promise<SmsTemplateRow> {
  const done = await db.smsTemplate.updateMany({ where: { id, tenantId }, data });
  if (done.count === 0) throw notFound("entity.sms_template");
  return toTemplateRow(await db.smsTemplate.findUniqueOrThrow({ where: { id }, select: templateSelect }));
}

export async function editSmsTemplate(db: Db, p: Principal, body: SmsTemplateEditBody): Promise<SmsTemplateRow> {
  const tenantId = await settingsTenant(db, p, body.tenantId);
  return updateInTenant(db, tenantId, body.id, { scene: body.scene, name: body.name, content: body.content });
}

export async function setSmsTemplateStatus(db: Db, p: Principal, body: SmsTemplateStatusBody) {
  const tenantId = await settingsTenant(db, p, body.tenantId);
  return updateInTenant(db, tenantId, body.id, { status: body.status });
}

/** Deletes a template that sent nothing yet; one with records stays (pause it instead) so records keep it. */
export async function deleteSmsTemplate(prisma: PrismaClient, p: Principal, body: SmsTemplateIdBody): Promise<null> {
  const tenantId = await settingsTenant(prisma, p, body.tenantId);
  // One conditional statement: of parallel deletes exactly one removes the row, the others find nothing to
  // delete and answer like a missing template (a find-then-delete let them all pass the find and fail the delete).
  const { count } = await prisma.smsTemplate.deleteMany({
    where: { id: body.id, tenantId, records: { none: {} } },
  });
  if (count === 1) return null;
  if (await prisma.smsTemplate.findFirst({ where: { id: body.id, tenantId }, select: { id: true } }))
    throw conflict("sms_template.has_records");
  throw notFound("entity.sms_template");
}

export async function listSmsRecords(db: Db, p: Principal, q: SmsRecordListQuery): Promise<SmsRecordList> {
  const tenantId = await settingsTenant(db, p, q.tenantId);
  const where: Prisma.SmsRecordWhereInput = {
    tenantId,
    status: q.status,
    templateId: q.templateId,
    phone: q.phone ? { contains: q.phone } : undefined,
    createdAt: createdBetween(q),
    ...(q.scene ? { template: { scene: q.scene } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.smsRecord.findMany({
      where,
      select: {
        id: true,
        templateId: true,
        template: { select: { name: true, scene: true } },
        userId: true,
        phone: true,
        status: true,
        errorCode: true,
        createdAt: true,
      },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageArgs(q),
    }),
    db.smsRecord.count({ where }),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id.toString(),
      templateId: r.templateId,
      templateName: r.template?.name ?? null,
      scene: r.template?.scene ?? null,
      userId: r.userId,
      phone: maskPhone(r.phone),
      status: r.status,
      errorCode: r.errorCode,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
  };
}
