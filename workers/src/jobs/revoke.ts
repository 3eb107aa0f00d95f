// A terminated batch withdraws what it can: RCS messages the provider accepted but has not delivered yet are
// revoked (RBM's revoke), and a revoked message counts as terminated (send result 3, refunded by the settlement)
// since it will never reach the phone. Channels without revoke (SMPP, WhatsApp) keep their messages as sent.
import { ReceiveResult, SendResult } from "@switchboard/contracts";
import { ChannelUnusable } from "../lib/adapter-pool";
import type { WorkerDeps } from "../lib/deps";

type Deps = Pick<WorkerDeps, "prisma" | "adapters" | "logger">;

/** Revocations in flight per channel. */
const CONCURRENCY = 32;

export interface Undelivered {
  id: bigint;
  phone: string;
  providerMessageId: string;
  channelId: number;
}

/** Revokes a stopped batch's accepted, undelivered RCS messages; returns how many were withdrawn. */
export async function revokeUndelivered(deps: Deps, batchId: bigint): Promise<number> {
  const rows = await deps.prisma.$queryRaw<Undelivered[]>`
    SELECT r.id, r.phone, r."providerMessageId", r."channelId"
    FROM recipients r JOIN channels c ON c.id = r."channelId"
    WHERE r."batchId" = ${batchId} AND r."sendResult" = ${SendResult.SUCCESS}
      AND r."receiveResult" = ${ReceiveResult.UNKNOWN} AND r."providerMessageId" IS NOT NULL AND c.kind = 'rcs'`;
  const revoked = await revokeAtProvider(deps, batchId, rows);
  if (revoked.length === 0) return 0;
  // Conditional: a delivery recorded meanwhile (the provider delivered it just before the revoke) stands.
  const withdrawn = await deps.prisma.$executeRaw`
    UPDATE recipients SET "sendResult" = ${SendResult.TERMINATED}, "errorCode" = 'REVOKED'
    WHERE id = ANY(${revoked}::bigint[]) AND "sendResult" = ${SendResult.SUCCESS}
      AND "receiveResult" = ${ReceiveResult.UNKNOWN}`;
  if (withdrawn > 0) deps.logger.info({ batchId: batchId.toString(), withdrawn }, "undelivered RCS messages revoked");
  return withdrawn;
}

/**
 * Asks each message's channel to revoke it; returns the ids of the recipients whose message the provider
 * withdrew (a message delivered meanwhile, or a channel that cannot be used or has no revoke, is left alone).
 */
export async function revokeAtProvider(deps: Deps, batchId: bigint, rows: readonly Undelivered[]): Promise<string[]> {
  const revoked: string[] = [];
  const byChannel = new Map<number, Undelivered[]>();
  for (const r of rows) byChannel.set(r.channelId, [...(byChannel.get(r.channelId) ?? []), r]);
  for (const [channelId, list] of byChannel) {
    let channel: Awaited<ReturnType<Deps["adapters"]["acquire"]>>;
    try {
      channel = await deps.adapters.acquire(channelId);
    } catch (err) {
      if (!(err instanceof ChannelUnusable)) throw err;
      deps.logger.warn(
        { batchId: batchId.toString(), channelId, reason: err.reason },
        "cannot revoke: channel unusable",
      );
      continue;
    }
    try {
      const revoke = channel.adapter.revoke?.bind(channel.adapter);
      if (!revoke) continue;
      for (let i = 0; i < list.length; i += CONCURRENCY) {
        const slice = list.slice(i, i + CONCURRENCY);
        const outcomes = await Promise.all(
          slice.map((r) => revoke({ to: r.phone, providerMessageId: r.providerMessageId })),
        );
        outcomes.forEach((o, k) => {
          if (o.ok && o.revoked) revoked.push((slice[k] as Undelivered).id.toString());
        });
      }
    } finally {
      deps.adapters.release(channel);
    }
  }
  return revoked;
}
