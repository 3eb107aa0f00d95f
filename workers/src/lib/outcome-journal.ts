// Send outcomes the database could not take. A chunk hands messages to the provider and writes their outcomes in
// batches (OutcomeWriter); when PostgreSQL is away long enough for a write to fail for good, the chunk stops and
// its job runs again later, reading the recipients still unsent. Without this journal, the ones the provider had
// already accepted would be among them and be sent twice. So the rows of a failed write are kept in Redis (one
// hash per batch: recipient id -> outcome; ids and provider ids only, never numbers or text), and every chunk
// run and every settlement first writes back what the journal holds for its batch.
import type { Redis } from "ioredis";
import type { SendOutcomeRow } from "./send-outcomes";

/** A kept outcome outlives any retry of its chunk (and the receipt window). */
const KEEP_MS = 7 * 24 * 3600 * 1000;

export class OutcomeJournal {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(batchId: bigint | string): string {
    return `${this.prefix}unwritten:${batchId}`;
  }

  /** The batches with kept outcomes: the scheduler writes them back as soon as the database answers again. */
  private get batchesKey(): string {
    return `${this.prefix}unwritten-batches`;
  }

  async batches(): Promise<string[]> {
    return this.redis.smembers(this.batchesKey);
  }

  /** Keeps rows whose database write failed for good. */
  async keep(batchId: bigint | string, rows: readonly SendOutcomeRow[]): Promise<void> {
    if (rows.length === 0) return;
    const fields: string[] = [];
    for (const row of rows) {
      fields.push(
        row.recipientId.toString(),
        JSON.stringify({ ...row, recipientId: row.recipientId.toString() }, (_k, v) =>
          typeof v === "bigint" ? v.toString() : v,
        ),
      );
    }
    await this.redis
      .multi()
      .hset(this.key(batchId), ...fields)
      .pexpire(this.key(batchId), KEEP_MS)
      .sadd(this.batchesKey, batchId.toString())
      .exec();
  }

  /**
   * Writes back what is kept for the batch (`write` records outcomes of recipients still unsent only, so a row
   * written twice changes nothing), then forgets it. Returns how many rows were kept.
   */
  async replay(batchId: bigint | string, write: (rows: SendOutcomeRow[]) => Promise<unknown>): Promise<number> {
    const kept = await this.redis.hgetall(this.key(batchId));
    const ids = Object.keys(kept);
    if (ids.length === 0) return 0;
    const rows = ids.map((id) => {
      const row = JSON.parse(kept[id] as string) as SendOutcomeRow & { recipientId: string };
      return { ...row, recipientId: BigInt(row.recipientId) };
    });
    await write(rows);
    await this.redis.hdel(this.key(batchId), ...ids);
    await this.unlistIfEmpty(batchId);
    return rows.length;
  }

  /** Takes the batch off the list once nothing is kept for it (rows kept meanwhile keep it listed). */
  async unlistIfEmpty(batchId: bigint | string): Promise<void> {
    if ((await this.redis.hlen(this.key(batchId))) === 0) await this.redis.srem(this.batchesKey, batchId.toString());
  }
}
