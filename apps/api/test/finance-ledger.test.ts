// The ledger function itself (as the batch module will call it) and the replay check.
import { BalanceLogType, BatchStatus, ProductCode, UserType } from "@switchboard/contracts";
import { applyBalanceChange, replayLedger, verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/lib/errors";
import { FinanceFixtures } from "./finance-fixtures";
import { createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let tenantId: number;

beforeAll(async () => {
  t = await createTestApp();
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

describe("replayLedger", () => {
  const row = (id: number, amount: bigint, balanceAfter: bigint) => ({ id: BigInt(id), amount, balanceAfter });

  it("accepts rows whose balanceAfter is the running sum", () => {
    expect(replayLedger([row(1, 100n, 100n), row(2, -40n, 60n), row(3, 5n, 65n)])).toEqual({
      ok: true,
      balance: 65n,
      rows: 3,
      firstMismatch: null,
    });
    expect(replayLedger([])).toMatchObject({ ok: true, balance: 0n, rows: 0 });
  });

  it("continues from an opening balance (chunked replay)", () => {
    expect(replayLedger([row(7, -10n, 90n)], 100n)).toMatchObject({ ok: true, balance: 90n });
  });

  it("stops at the first row that does not add up, or goes below zero", () => {
    expect(replayLedger([row(1, 100n, 100n), row(2, -40n, 70n), row(3, 1n, 71n)])).toEqual({
      ok: false,
      balance: 100n,
      rows: 1,
      firstMismatch: { id: 2n, expected: 60n, recorded: 70n },
    });
    expect(replayLedger([row(1, -1n, -1n)])).toMatchObject({ ok: false, firstMismatch: { id: 1n, expected: -1n } });
  });
});

describe("applyBalanceChange", () => {
  it("writes consume and refund rows with the batch id and no operator", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "10" });
    const product = await t.prisma.product.findFirstOrThrow({ where: { tenantId, code: ProductCode.SMS } });
    const batch = await t.prisma.messageBatch.create({
      data: {
        tenantId,
        userId: c.id,
        productId: product.id,
        productCode: ProductCode.SMS,
        taskType: 2,
        submitMode: 1,
        status: BatchStatus.SEND_FINISHED,
        content: {},
      },
    });
    const applied = await t.prisma.$transaction(async (tx) => {
      await applyBalanceChange(tx, {
        tenantId,
        userId: c.id,
        type: BalanceLogType.CONSUME,
        amount: -70_000n,
        batchId: batch.id,
      });
      return applyBalanceChange(tx, {
        tenantId,
        userId: c.id,
        type: BalanceLogType.REFUND,
        amount: 20_000n,
        batchId: batch.id,
      });
    });
    expect(applied.balanceAfter).toBe(50_000n);
    const log = await t.prisma.balanceLog.findUniqueOrThrow({ where: { id: applied.logId } });
    expect(log).toMatchObject({
      type: BalanceLogType.REFUND,
      batchId: batch.id,
      operatorId: null,
      balanceAfter: 50_000n,
    });
  });

  it("refuses a debit beyond the balance with 402 and leaves the caller's transaction to roll back", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "1" });
    const attempt = t.prisma.$transaction(async (tx) => {
      await applyBalanceChange(tx, { tenantId, userId: c.id, type: BalanceLogType.CONSUME, amount: -5_000n });
      await applyBalanceChange(tx, { tenantId, userId: c.id, type: BalanceLogType.CONSUME, amount: -5_001n });
    });
    await expect(attempt).rejects.toMatchObject({
      status: 402,
      key: "finance.insufficient_balance",
      params: { balance: "0.50" },
    });
    expect(await fx.balance(c.id)).toBe("1.0000");
    expect(await fx.logCount(c.id)).toBe(1);
  });

  it("answers 404 for a deleted user or a user of another tenant, and refuses a zero amount", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "1" });
    const other = await fx.tenant();
    const credit = (tenant: number) =>
      t.prisma.$transaction((tx) =>
        applyBalanceChange(tx, { tenantId: tenant, userId: c.id, type: BalanceLogType.REFUND, amount: 1n }),
      );
    await expect(credit(other)).rejects.toMatchObject({ status: 404 });
    await t.prisma.user.update({ where: { id: c.id }, data: { deletedAt: new Date() } });
    await expect(credit(tenantId)).rejects.toBeInstanceOf(AppError);
    await expect(
      t.prisma.$transaction((tx) =>
        applyBalanceChange(tx, { tenantId, userId: c.id, type: BalanceLogType.REFUND, amount: 0n }),
      ),
    ).rejects.toThrow(/zero/);
    expect(await fx.logCount(c.id)).toBe(1);
  });
});

describe("verifyLedger", () => {
  it("reports a balance changed without a ledger row, and a row that does not add up", async () => {
    const a = await fx.account(UserType.USER, tenantId, { balance: "3" });
    await t.prisma.user.update({ where: { id: a.id }, data: { balance: { increment: 1n } } });
    expect(await verifyLedger(t.prisma, a.id)).toMatchObject({
      ok: false,
      balance: 30_000n,
      recordedBalance: 30_001n,
      firstMismatch: null,
    });

    const b = await fx.account(UserType.USER, tenantId, { balance: "3" });
    await fx.credit(b.id, tenantId, "1");
    const second = await t.prisma.balanceLog.findFirstOrThrow({ where: { userId: b.id }, orderBy: { id: "desc" } });
    await t.prisma.balanceLog.update({ where: { id: second.id }, data: { balanceAfter: 99n } });
    expect(await verifyLedger(t.prisma, b.id)).toMatchObject({
      ok: false,
      rows: 1,
      firstMismatch: { id: second.id, expected: 40_000n, recorded: 99n },
    });
    // both were broken on purpose: they are not part of the end-of-file check
    fx.touched.delete(a.id);
    fx.touched.delete(b.id);
  });

  it("replays the seeded demo customer's opening balance", async () => {
    const demo = await t.prisma.user.findFirstOrThrow({ where: { tenantId, username: "customer" } });
    expect((await verifyLedger(t.prisma, demo.id)).ok).toBe(true);
  });
});
