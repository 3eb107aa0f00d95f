// The opt-out list (docs/opt-outs.md): per customer, numbers its batches never send to nor charge for. A customer
// manages its own list; staff manage the lists of the customers in their scope (admins their tenant's, agents their
// own customers'). Another tenant's or another customer's entry answers like a missing one (404). Numbers are read
// like a batch's (E.164, or national in domestic mode) and stored once per customer: adding one already there
// keeps the first entry (its source and time).
import {
  type OptOutAddBody,
  type OptOutImportResult,
  type OptOutList,
  type OptOutListQuery,
  type OptOutRow,
  OptOutSource,
  UserType,
  type V1OptOutList,
  type V1OptOutQuery,
} from "@switchboard/contracts";
import type { Db, Prisma } from "@switchboard/db";
import { loadSubmitContext, numberReading } from "@switchboard/domain/batches/context";
import { NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { addOptOuts } from "@switchboard/domain/opt-outs";
import { cursorPage, type SortKey } from "../../lib/cursor";
import { badRequest, notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { managedCustomersWhere, tenantWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";

const rowSelect = {
  id: true,
  userId: true,
  phone: true,
  source: true,
  createdAt: true,
  user: { select: { username: true } },
} satisfies Prisma.OptOutSelect;

type RowData = Prisma.OptOutGetPayload<{ select: typeof rowSelect }>;

function toRow(r: RowData): OptOutRow {
  return {
    id: r.id,
    userId: r.userId,
    user: r.user.username,
    phone: r.phone,
    source: r.source,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Entries the caller may see: a customer its own, an agent its customers', admins their tenant's. */
function visibleWhere(p: Principal): Prisma.OptOutWhereInput {
  return { ...tenantWhere(p), user: managedCustomersWhere(p) };
}

/** The customer whose list a write goes to: the caller itself, or for staff a customer in their scope (else 404). */
async function targetCustomer(
  db: Db,
  p: Principal,
  userId: number | undefined,
): Promise<{ id: number; tenantId: number }> {
  if (p.type === UserType.USER) {
    const self = await db.user.findUniqueOrThrow({ where: { id: p.userId }, select: { id: true, tenantId: true } });
    return { id: self.id, tenantId: self.tenantId as number };
  }
  if (userId === undefined) throw badRequest("opt_out.customer_required");
  const c = await db.user.findFirst({
    where: { AND: [managedCustomersWhere(p), { id: userId }] },
    select: { id: true, tenantId: true },
  });
  if (!c || c.tenantId === null) throw notFound("entity.user");
  return { id: c.id, tenantId: c.tenantId };
}

/** Reads numbers the way the customer's batches read them: valid distinct E.164 ones, and how many were not. */
async function readNumbers(db: Db, customerId: number, raw: readonly string[]) {
  const sorter = new NumberSorter(numberReading(await loadSubmitContext(db, customerId)));
  for (const r of raw) sorter.add(r);
  return sorter;
}

// ---------------------------------------------------------------- list, add, remove

export async function listOptOuts(db: Db, p: Principal, q: OptOutListQuery): Promise<OptOutList> {
  const digits = q.keyword?.replace(/[^\d]/g, "");
  const where: Prisma.OptOutWhereInput = {
    AND: [visibleWhere(p), { source: q.source, userId: q.userId, ...(digits ? { phone: { contains: digits } } : {}) }],
  };
  const [rows, total] = await Promise.all([
    db.optOut.findMany({ where, select: rowSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(q) }),
    db.optOut.count({ where }),
  ]);
  return { list: rows.map(toRow), total };
}

async function addOne(db: Db, p: Principal, body: OptOutAddBody, source: OptOutSource): Promise<OptOutRow> {
  const customer = await targetCustomer(db, p, body.userId);
  const sorted = await readNumbers(db, customer.id, [body.phone]);
  const phone = sorted.size > 0 ? sorted.phone(0) : undefined;
  if (phone === undefined) throw badRequest("opt_out.invalid_phone", { phone: body.phone.slice(0, 32) });
  await addOptOuts(db, customer, [phone], source);
  const row = await db.optOut.findUniqueOrThrow({
    where: { userId_phone: { userId: customer.id, phone } },
    select: rowSelect,
  });
  return toRow(row);
}

export function addOptOut(db: Db, p: Principal, body: OptOutAddBody): Promise<OptOutRow> {
  return addOne(db, p, body, OptOutSource.MANUAL);
}

export async function importOptOuts(
  db: Db,
  p: Principal,
  body: { numbers: string[]; userId?: number | undefined },
): Promise<OptOutImportResult> {
  const customer = await targetCustomer(db, p, body.userId);
  const sorted = await readNumbers(db, customer.id, body.numbers);
  const added = await addOptOuts(db, customer, sorted.phoneList(), OptOutSource.IMPORT);
  return {
    total: sorted.total,
    added,
    existing: sorted.size - added,
    invalid: sorted.invalid,
  };
}

export async function removeOptOut(db: Db, p: Principal, id: number): Promise<{ id: number }> {
  const removed = await db.optOut.deleteMany({ where: { AND: [visibleWhere(p), { id }] } });
  if (removed.count === 0) throw notFound("entity.opt_out");
  return { id };
}

/** CSV of a list (a customer its own; staff one customer's in their scope): phone, source, time (UTC, ISO 8601). */
export async function exportOptOuts(db: Db, p: Principal, userId: number | undefined): Promise<string> {
  const customer = await targetCustomer(db, p, userId);
  const rows = await db.optOut.findMany({
    where: { userId: customer.id },
    select: { phone: true, source: true, createdAt: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const lines = rows.map((r) => `${r.phone},${r.source},${r.createdAt.toISOString()}`);
  return `phone,source,createdAt\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}`;
}

// ---------------------------------------------------------------- developer API

/** Newest first, the id breaking ties. */
const OPT_OUT_ORDER: readonly SortKey[] = [
  { field: "createdAt", dir: "desc", kind: "date" },
  { field: "id", dir: "desc", kind: "int" },
];

export async function listOptOutsV1(db: Db, p: Principal, q: V1OptOutQuery): Promise<V1OptOutList> {
  const digits = q.phone?.replace(/[^\d]/g, "");
  const where: Prisma.OptOutWhereInput = { userId: p.userId, ...(digits ? { phone: { contains: digits } } : {}) };
  const page = cursorPage(OPT_OUT_ORDER, q);
  const [rows, total] = await Promise.all([
    db.optOut.findMany({
      ...page.args(where),
      select: { id: true, phone: true, source: true, createdAt: true },
    }),
    db.optOut.count({ where }),
  ]);
  return {
    list: rows.map((r) => ({ phone: r.phone, source: r.source, createdAt: r.createdAt.toISOString() })),
    total,
    nextCursor: page.next(rows),
  };
}

export async function addOptOutV1(db: Db, p: Principal, phone: string) {
  const row = await addOne(db, p, { phone }, OptOutSource.API);
  return { phone: row.phone, source: row.source, createdAt: row.createdAt };
}

/** Removes a number from the key's customer's list; a number not on it answers 404. */
export async function removeOptOutV1(db: Db, p: Principal, phone: string): Promise<{ phone: string }> {
  const sorted = await readNumbers(db, p.userId, [phone]);
  const e164 = sorted.size > 0 ? sorted.phone(0) : undefined;
  if (e164 === undefined) throw badRequest("opt_out.invalid_phone", { phone: phone.slice(0, 32) });
  const removed = await db.optOut.deleteMany({ where: { userId: p.userId, phone: e164 } });
  if (removed.count === 0) throw notFound("entity.opt_out");
  return { phone: e164 };
}
