// A receipt the SMSC saw acknowledged is never lost. The SMPP adapter answers a deliver_sm only once its receipt is
// here (the report handler's promise: adapter.ts), and the receipt stays until it is somewhere else that lasts: a
// delivery-report job enqueued (report-batcher.ts), or the database row it rode on with its outcome, or the
// outcome journal that kept that row (send-outcomes.ts). A process killed in between leaves its receipts here, and
// another process enqueues them.
//
// In Redis (provider ids, statuses, error codes and times only, never numbers or text), per process:
//   - `receipts:<owner>`: a hash, one field per receipt (a sequence number of the process) -> [channel, receipt];
//     one HSET per event-loop turn for every receipt of the turn (the acknowledgements of the turn wait for it),
//     one HDEL per turn for the receipts that went elsewhere;
//   - `receipt-owners`: a sorted set of the processes with a journal, scored by their last heartbeat (every
//     heartbeatMs). A process whose heartbeat is older than staleMs is taken for dead: a live one claims its
//     journal (a lock, so one at a time), enqueues what it holds as delivery-report jobs, and removes it.
// A process stopped cleanly (SIGTERM) has enqueued its receipts and leaves nothing. One wrongly taken for dead (an
// event loop stuck for staleMs) only has its receipts enqueued twice: a receipt is recorded once whatever comes.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { DeliveryReport, Logger } from "@switchboard/channels";
import type { DeliveryReportJob } from "@switchboard/contracts";
import { type RedisConnection, redisScript, runScript } from "@switchboard/domain/redis";
import { jobReport } from "./report-batcher";

type Report = DeliveryReportJob["reports"][number];

/**
 * A receipt journaled by another script, in a round trip that script makes anyway (part-receipts.ts: its part
 * lookup): the script writes `value` under field `token` of hash `key`, as add() would have.
 */
export interface JournalEntry {
  token: string;
  item: Report;
  key: string;
  value: string;
}

export interface ReceiptJournalOptions {
  heartbeatMs: number;
  /**
   * A journal whose process has not beaten for this long is taken over. Longer than a chunk's take-over (its job
   * lock and lease, 20 s), so the outcomes a dead process journaled are written back before its receipts look for
   * them (they retry for about nine minutes anyway: reportRetryDelaysMs).
   */
  staleMs: number;
}

export const DEFAULT_RECEIPT_JOURNAL: ReceiptJournalOptions = { heartbeatMs: 5_000, staleMs: 30_000 };

/** Receipts per delivery-report job when a journal is taken over. */
const JOB_REPORTS = 1_000;
/** Fields per HDEL when a journal is taken over. */
const DELETE_BATCH = 1_000;

// Removes a taken-over process from the owners once its journal is empty and it has not beaten meanwhile.
const UNLIST = redisScript(`
if redis.call('HLEN', KEYS[2]) == 0 then
  local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
  if score and tonumber(score) < tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
end
return 0`);

interface Turn {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function newTurn(): Turn {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Its receipts' acknowledgements handle a failure; nobody else has to.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class ReceiptJournal {
  readonly owner: string;
  private seq = 0;
  /** This turn's receipts: field, value, field, value... */
  private adds: string[] = [];
  private turn: Turn | undefined;
  private dones: string[] = [];
  private scheduled = false;
  /** The owners set names this process (its first write put it there). */
  private listed = false;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private closed = false;
  /** Receipts another script journaled (entry()), until the router takes them (taken()). */
  private readonly written = new WeakMap<DeliveryReport, JournalEntry>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    /** Where a dead process's receipts go: the delivery-report queue. */
    private readonly enqueue: (job: DeliveryReportJob) => Promise<void>,
    private readonly logger: Logger,
    private readonly opts: ReceiptJournalOptions = DEFAULT_RECEIPT_JOURNAL,
  ) {
    this.owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  }

  get ownersKey(): string {
    return `${this.prefix}receipt-owners`;
  }

  /** Whether the owners set names this process already (else a script journaling a receipt lists it too). */
  get isListed(): boolean {
    return this.listed;
  }

  private keyOf(owner: string): string {
    return `${this.prefix}receipts:${owner}`;
  }

  /**
   * Journals a receipt with this turn's others; `stored` resolves once their write has landed (rejects when it
   * failed). `token` names it for done().
   */
  add(channelId: number, report: Report): { token: string; stored: Promise<void> } {
    const token = (this.seq++).toString(36);
    this.adds.push(token, JSON.stringify([channelId, report]));
    this.turn ??= newTurn();
    this.schedule();
    return { token, stored: this.turn.promise };
  }

  /**
   * A receipt's journal entry for a script that writes it itself, in a round trip it makes anyway (part-receipts.ts);
   * nothing is written here. Once the script wrote it, written() hands it to the router (taken()).
   */
  entry(channelId: number, report: DeliveryReport): JournalEntry {
    const token = (this.seq++).toString(36);
    const item = jobReport(report, Date.now());
    return { token, item, key: this.keyOf(this.owner), value: JSON.stringify([channelId, item]) };
  }

  /** A script wrote this receipt's entry (and listed this process, when `listed`). */
  wrote(report: DeliveryReport, entry: JournalEntry, listed: boolean): void {
    this.written.set(report, entry);
    if (listed && !this.listed) {
      this.listed = true;
      this.start();
    }
  }

  /** The entry a script wrote for this receipt, once: the receipt is journaled already. */
  taken(report: DeliveryReport): JournalEntry | undefined {
    const entry = this.written.get(report);
    if (entry !== undefined) this.written.delete(report);
    return entry;
  }

  /** These receipts are enqueued or recorded: they leave the journal (with this turn's write, after its adds). */
  done(tokens: readonly string[]): void {
    if (tokens.length === 0) return;
    for (const token of tokens) this.dones.push(token);
    this.schedule();
  }

  /** Beats and takes over dead processes' journals every heartbeatMs (also started by the first receipt). */
  start(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setInterval(() => {
      this.beating = this.beating.then(() => this.beat());
    }, this.opts.heartbeatMs);
    this.timer.unref();
    this.beating = this.beating.then(() => this.beat());
  }

  /** Stops beating; once everything journaled here has gone elsewhere, the journal and its listing go too. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    if (this.scheduled) this.flush();
    if (!this.listed) return;
    const key = this.keyOf(this.owner);
    try {
      // Left listed when receipts remain (an enqueue that failed): another process takes them over.
      await runScript(this.redis, UNLIST, [this.ownersKey, key], [this.owner, Date.now() + 1]);
    } catch (err) {
      this.logger.warn({ err }, "receipt journal: not unlisted on close");
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const key = this.keyOf(this.owner);
    const adds = this.adds;
    const turn = this.turn;
    const dones = this.dones;
    this.adds = [];
    this.turn = undefined;
    this.dones = [];
    if (adds.length > 0 && turn) {
      let write: Promise<unknown>;
      if (this.listed) {
        write = this.redis.hset(key, ...adds);
      } else {
        // The first write lists this process, in the same transaction: no journal without its owner's listing.
        this.listed = true;
        write = this.redis
          .multi()
          .hset(key, ...adds)
          .zadd(this.ownersKey, Date.now(), this.owner)
          .exec()
          .then((results) => {
            const failed = results?.find(([err]) => err !== null);
            if (results === null || failed) throw failed?.[0] ?? new Error("receipt journal transaction aborted");
          });
        write.catch(() => {
          this.listed = false;
        });
        this.start();
      }
      write.then(turn.resolve, turn.reject);
    }
    // Sent after this turn's adds on the same connection: a receipt added and done in one turn leaves nothing.
    if (dones.length > 0) {
      this.redis.hdel(key, ...dones).catch((err: unknown) => {
        this.logger.warn({ err, receipts: dones.length }, "receipt journal: entries not removed");
      });
    }
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    try {
      if (this.listed) await this.redis.zadd(this.ownersKey, Date.now(), this.owner);
      await this.takeOver();
    } catch (err) {
      this.logger.warn({ err }, "receipt journal: heartbeat or take-over failed; next beat tries again");
    }
  }

  /** Enqueues the receipts of processes taken for dead; returns how many. */
  async takeOver(): Promise<number> {
    const staleBefore = Date.now() - this.opts.staleMs;
    const owners = await this.redis.zrangebyscore(this.ownersKey, "-inf", staleBefore);
    let taken = 0;
    for (const other of owners) {
      if (other === this.owner || this.closed) continue;
      const claim = `${this.prefix}receipt-claim:${other}`;
      // Held while enqueuing; lapses by itself should this process die meanwhile.
      const held = Math.max(this.opts.staleMs, 10_000);
      if ((await this.redis.set(claim, this.owner, "PX", held, "NX")) !== "OK") continue;
      try {
        taken += await this.takeOverOne(other, staleBefore);
      } finally {
        await this.redis.del(claim);
      }
    }
    return taken;
  }

  private async takeOverOne(other: string, staleBefore: number): Promise<number> {
    const key = this.keyOf(other);
    const held = await this.redis.hgetall(key);
    const byChannel = new Map<number, Report[]>();
    for (const value of Object.values(held)) {
      try {
        const [channelId, report] = JSON.parse(value) as [number, Report];
        const list = byChannel.get(channelId) ?? [];
        list.push(report);
        byChannel.set(channelId, list);
      } catch {
        // not ours to read: dropped with the rest
      }
    }
    for (const [channelId, reports] of byChannel) {
      for (let i = 0; i < reports.length; i += JOB_REPORTS) {
        await this.enqueue({ channelId, reports: reports.slice(i, i + JOB_REPORTS) });
      }
    }
    const fields = Object.keys(held);
    for (let i = 0; i < fields.length; i += DELETE_BATCH) {
      await this.redis.hdel(key, ...fields.slice(i, i + DELETE_BATCH));
    }
    await runScript(this.redis, UNLIST, [this.ownersKey, key], [other, staleBefore]);
    if (fields.length > 0) {
      this.logger.warn(
        { receipts: fields.length },
        "receipts journaled by a process that stopped without enqueuing them: enqueued",
      );
    }
    return fields.length;
  }
}
