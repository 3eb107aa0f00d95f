// At most once to the provider, whatever dies. A chunk hands messages to the provider and writes their outcomes
// in batches (OutcomeWriter); until such a write lands, the provider has messages the database does not know
// were sent. If the write fails for good (PostgreSQL away) or the process dies (SIGKILL, a crash, a lost
// machine), the chunk's job runs again later and reads the recipients still unsent: without this journal, the
// ones the provider had already accepted would be among them, and be sent twice.
//
// So, in Redis (ids and provider ids only, never numbers or text), a hash per chunk of a batch. A chunk run writes
// a field per call, never a field per recipient (a field per recipient cost Redis more than any other command of
// the dispatch, and the workers a string per id and per outcome: docs/benchmarks.md, session 25):
//   1. intent:  before a group of messages leaves (one awaited HSET per group), `i<run>.<n>` -> their ids;
//   2. outcome: as soon as the provider answers (one HSET per event-loop turn), `o<run>.<n>` -> the turn's outcomes;
//   3. forget:  once a recipient is settled (its outcome's database write has landed, or, an intent, it was not
//               accepted after all: retry, fallback, never handed over), it leaves its fields: a field with none
//               left goes (HDEL), a group's intents partly settled are written again with the rest (one round trip
//               per database write or round). The run keeps in memory which recipients each of its fields holds.
// A group of single sends journals a field per recipient (`<recipient>` -> "i", then its outcome), a hash per send
// (singles()): one recipient per chunk. Replay reads both forms.
// The next run of a chunk, which holds the chunk's lease, first writes back what its journal holds: outcomes as
// they are, and intents without an outcome as failed with "lost_in_flight" (the provider may or may not have the
// message: it is not sent again, and it is refunded like any failure). Settlement does the same for every chunk
// of the batch (no chunk is live then). The scheduler writes back only outcomes (never intents: their chunk may
// be running), for the batches whose write failed for good (listed), as soon as the database answers again.
//
// What can still reach the provider twice: nothing the journal saw. A process that dies between a group's
// intents and their sends leaves at most one token batch failed as lost_in_flight without having sent them.
import { randomBytes } from "node:crypto";
import { SendResult } from "@switchboard/contracts";
import { isClustered, type RedisConnection, redisScript, runScript, slotGroup } from "@switchboard/domain/redis";
import type { ChainableCommander } from "ioredis";
import type { OutcomeJournalOf, SendOutcomeRow } from "./send-outcomes";

/** A kept outcome outlives any retry of its chunk (and the receipt window). */
const KEEP_MS = 7 * 24 * 3600 * 1000;

/** A recipient handed to the provider whose answer has not been journaled. */
const INTENT = "i";

/** The error code of a message whose provider answer was lost with the process: failed, never resent. */
export const LOST_IN_FLIGHT = "lost_in_flight";

// A group of single sends' journals on one Redis (singles()): each step one script call for the whole group, not a
// command per send. KEYS: per send, its chunk's journal (and for INTEND and FORGET its batch's list of journaled
// chunks after it); ARGV as each says.

// ARGV: keep ms, then per send its recipient and chunk.
const INTEND = redisScript(`
for i = 1, #KEYS / 2 do
  local key, chunks = KEYS[2 * i - 1], KEYS[2 * i]
  redis.call('HSET', key, ARGV[2 * i], '${INTENT}')
  redis.call('PEXPIRE', key, ARGV[1])
  redis.call('SADD', chunks, ARGV[2 * i + 1])
  redis.call('PEXPIRE', chunks, ARGV[1])
end
return 0`);

// ARGV: per send its recipient and outcome.
const AHEAD = redisScript(`
for i = 1, #KEYS do redis.call('HSET', KEYS[i], ARGV[2 * i - 1], ARGV[2 * i]) end
return 0`);

// ARGV: per send its chunk. The chunk's one recipient is written: its journal, and the batch's note of it, go.
const FORGET = redisScript(`
for i = 1, #KEYS / 2 do
  redis.call('DEL', KEYS[2 * i - 1])
  redis.call('SREM', KEYS[2 * i], ARGV[i])
end
return 0`);

export interface ReplayCounts {
  /** Outcomes written back. */
  outcomes: number;
  /** Intents without an outcome, failed as lost_in_flight. */
  lostInFlight: number;
}

/** An outcome as kept: [result, provider id, error code, receipt result, receipt error] (cheap to write per send). */
type Kept = [
  SendOutcomeRow["result"],
  string | null,
  string | null,
  NonNullable<SendOutcomeRow["receipt"]>["result"]?,
  (string | null)?,
];

function kept(row: SendOutcomeRow): Kept {
  const out: Kept = [row.result, row.providerMessageId, row.errorCode];
  if (row.receipt) out.push(row.receipt.result, row.receipt.errorCode);
  return out;
}

function serialize(row: SendOutcomeRow): string {
  return JSON.stringify(kept(row));
}

function fromKept(recipientId: string, [result, providerMessageId, errorCode, receiptResult, receiptError]: Kept) {
  return {
    recipientId: BigInt(recipientId),
    result,
    providerMessageId,
    errorCode,
    ...(receiptResult === undefined ? {} : { receipt: { result: receiptResult, errorCode: receiptError ?? null } }),
  } satisfies SendOutcomeRow;
}

/** A turn's outcomes in one field: [recipient, ...kept] each. */
function serializeRows(rows: readonly SendOutcomeRow[]): string {
  return JSON.stringify(rows.map((r) => [r.recipientId.toString(), ...kept(r)]));
}

/**
 * What a chunk's hash holds, read back: the outcomes (by recipient) and the recipients intended. A field named by
 * a recipient is the per-recipient form (singles(), and chunk runs of earlier versions); `i…` a group's intents;
 * `o…` (a turn's outcomes) and `k…` (outcomes kept after their write failed for good) rows.
 */
function readChunk(hash: Record<string, string>): {
  outcomes: Map<string, SendOutcomeRow>;
  intents: Set<string>;
  outcomeFields: string[];
} {
  const outcomes = new Map<string, SendOutcomeRow>();
  const intents = new Set<string>();
  const outcomeFields: string[] = [];
  for (const [field, value] of Object.entries(hash)) {
    const kind = field.charCodeAt(0);
    if (kind >= 48 && kind <= 57) {
      if (value === INTENT) intents.add(field);
      else {
        outcomes.set(field, fromKept(field, JSON.parse(value) as Kept));
        outcomeFields.push(field);
      }
    } else if (field.startsWith(GROUP_INTENT)) {
      for (const id of value.split(",")) intents.add(id);
    } else {
      for (const [id, ...rest] of JSON.parse(value) as Array<[string, ...Kept]>) {
        // A recipient in a turn's field and a kept one: the kept row may carry a receipt that came after the turn.
        const row = fromKept(id, rest);
        if (!outcomes.get(id)?.receipt || row.receipt) outcomes.set(id, row);
      }
      outcomeFields.push(field);
    }
  }
  return { outcomes, intents, outcomeFields };
}

/** Field prefixes of a chunk run's journal (see the header). */
const GROUP_INTENT = "i";
const GROUP_OUTCOMES = "o";
const GROUP_KEPT = "k";

/** Names this process's chunk runs apart from each other's and from other processes' (a field per run and call). */
const PROCESS_TAG = randomBytes(4).toString("hex");
let runs = 0;

export class OutcomeJournal {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  private key(batchId: bigint | string, chunk: string): string {
    // A chunk's hash and its batch's set meet in one MULTI: on a cluster they share the batch's hash tag.
    return `${this.prefix}unwritten:${slotGroup(this.redis, String(batchId))}:${chunk}`;
  }

  /** The chunks of a batch that have (or had) a journal. */
  private chunksKey(batchId: bigint | string): string {
    return `${this.prefix}unwritten-chunks:${slotGroup(this.redis, String(batchId))}`;
  }

  /** The batches with outcomes whose write failed for good: the scheduler writes them back. */
  private get batchesKey(): string {
    return `${this.prefix}unwritten-batches`;
  }

  async batches(): Promise<string[]> {
    return this.redis.smembers(this.batchesKey);
  }

  /**
   * The journal of one chunk of a batch, as a chunk run uses it: a field per call (see the header), and, in memory,
   * how many recipients of each field are still open and which field holds each recipient.
   */
  of(batchId: bigint | string, chunk: string): OutcomeJournalOf {
    const key = this.key(batchId, chunk);
    const run = `${PROCESS_TAG}${(runs++).toString(36)}.`;
    let calls = 0;
    let listed = false;
    const field = (kind: string) => `${kind}${run}${(calls++).toString(36)}`;
    /** Each intent field's recipients not settled yet, and where each recipient's intent is. */
    const intents = new Map<string, Set<bigint>>();
    const intentOf = new Map<bigint, string>();
    /** How many of each outcome field's recipients are not written yet, and where each recipient's outcome is. */
    const outcomes = new Map<string, number>();
    const outcomeOf = new Map<bigint, string>();
    /**
     * Settles recipients' intents: the fields left with none go (`gone`), the others are written again with what is
     * left of them (`rest`: field, value...), so that a field always holds exactly its recipients not settled, and a
     * write back never reads a settled one as lost in flight.
     */
    const settleIntents = (ids: Iterable<bigint>, gone: string[]): string[] => {
      const touched = new Set<string>();
      for (const id of ids) {
        const at = intentOf.get(id);
        const open = at === undefined ? undefined : intents.get(at);
        if (at === undefined || !open) continue;
        intentOf.delete(id);
        open.delete(id);
        touched.add(at);
      }
      const rest: string[] = [];
      for (const at of touched) {
        const open = intents.get(at);
        if (open === undefined || open.size === 0) {
          intents.delete(at);
          gone.push(at);
        } else rest.push(at, [...open].join(","));
      }
      return rest;
    };
    /** Removes the fields gone and rewrites the others, in one round trip. */
    const update = async (gone: string[], rest: string[]) => {
      if (rest.length === 0) {
        if (gone.length > 0) await this.redis.hdel(key, ...gone);
        return;
      }
      const tx = this.redis.multi();
      if (gone.length > 0) tx.hdel(key, ...gone);
      await tx.hset(key, ...rest).exec();
    };
    return {
      intend: async (ids) => {
        if (ids.length === 0) return;
        const at = field(GROUP_INTENT);
        intents.set(at, new Set(ids));
        for (const id of ids) intentOf.set(id, at);
        const value = ids.join(",");
        if (listed) {
          await this.redis.hset(key, at, value);
          return;
        }
        // the first write of a chunk run: the key's lifetime and the batch's list of journaled chunks
        listed = true;
        await this.redis
          .multi()
          .hset(key, at, value)
          .pexpire(key, KEEP_MS)
          .sadd(this.chunksKey(batchId), chunk)
          .pexpire(this.chunksKey(batchId), KEEP_MS)
          .exec();
      },
      drop: async (ids) => {
        // Not accepted after all: not in flight, whatever happens next.
        const gone: string[] = [];
        await update(gone, settleIntents(ids, gone));
      },
      ahead: async (rows) => {
        if (rows.length === 0) return;
        const at = field(GROUP_OUTCOMES);
        for (const r of rows) outcomeOf.set(r.recipientId, at);
        outcomes.set(at, rows.length);
        // the key's lifetime was set by the chunk's first intent
        await this.redis.hset(key, at, serializeRows(rows));
      },
      forget: async (rows) => {
        const gone: string[] = [];
        for (const r of rows) {
          const at = outcomeOf.get(r.recipientId);
          if (at === undefined) continue;
          outcomeOf.delete(r.recipientId);
          const left = (outcomes.get(at) ?? 1) - 1;
          if (left > 0) outcomes.set(at, left);
          else {
            outcomes.delete(at);
            gone.push(at);
          }
        }
        await update(
          gone,
          settleIntents(
            rows.map((r) => r.recipientId),
            gone,
          ),
        );
      },
      keep: async (rows) => {
        if (rows.length === 0) return;
        // Their intent and outcome fields stay too (never settled): replay reads each recipient once.
        const tx = this.redis
          .multi()
          .hset(key, field(GROUP_KEPT), serializeRows(rows))
          .pexpire(key, KEEP_MS)
          .sadd(this.chunksKey(batchId), chunk)
          .pexpire(this.chunksKey(batchId), KEEP_MS);
        // On a cluster the list of batches (one key for all) has a slot of its own: the batch is listed first, so
        // a crash in between leaves a listed batch without rows, which recovery drops, never rows unlisted.
        if (isClustered(this.redis)) await this.redis.sadd(this.batchesKey, batchId.toString());
        else tx.sadd(this.batchesKey, batchId.toString());
        await tx.exec();
      },
    };
  }

  /**
   * The journals of a group of single sends (dispatch-singles.ts: one batch per recipient, its one chunk named by
   * that recipient), as one journal: each call is one MULTI over the group's keys instead of a round trip per
   * batch. Each batch's chunk journal holds what `of(batchId, chunk)` would, so the usual path (a chunk run, a
   * settlement) replays it as its own. Its one recipient's outcome written, a chunk's journal is gone (forget).
   */
  singles(entries: ReadonlyArray<{ batchId: bigint; chunk: string; recipientId: bigint }>): OutcomeJournalOf {
    if (isClustered(this.redis)) {
      // Keys of several batches are in several slots (no MULTI across them): each batch's journal on its own.
      const journals = new Map(entries.map((e) => [e.recipientId, this.of(e.batchId, e.chunk)]));
      const each = <T>(
        items: readonly T[],
        id: (t: T) => bigint,
        call: (j: OutcomeJournalOf, t: T[]) => Promise<void>,
      ) =>
        Promise.all(
          items.map((t) => {
            const j = journals.get(id(t));
            return j ? call(j, [t]) : undefined;
          }),
        ).then(() => undefined);
      return {
        intend: (ids) =>
          each(
            ids,
            (i) => i,
            (j, t) => j.intend(t),
          ),
        drop: (ids) =>
          each(
            ids,
            (i) => i,
            (j, t) => j.drop(t),
          ),
        ahead: (rows) =>
          each(
            rows,
            (r) => r.recipientId,
            (j, t) => j.ahead(t),
          ),
        forget: (rows) =>
          each(
            rows,
            (r) => r.recipientId,
            (j, t) => j.forget(t),
          ),
        keep: (rows) =>
          each(
            rows,
            (r) => r.recipientId,
            (j, t) => j.keep(t),
          ),
      };
    }
    const at = new Map(
      entries.map((e) => [
        e.recipientId,
        { key: this.key(e.batchId, e.chunk), chunks: this.chunksKey(e.batchId), ...e },
      ]),
    );
    type At = NonNullable<ReturnType<typeof at.get>>;
    const multi = async <T>(
      items: readonly T[],
      id: (t: T) => bigint,
      add: (tx: ChainableCommander, e: At, t: T) => void,
    ) => {
      if (items.length === 0) return;
      const tx = this.redis.multi();
      for (const t of items) {
        const e = at.get(id(t));
        if (e) add(tx, e, t);
      }
      await tx.exec();
    };
    /** The group's sends among `items` (one of another group is not this journal's). */
    const of = <T>(items: readonly T[], id: (t: T) => bigint): At[] =>
      items.flatMap((t) => {
        const e = at.get(id(t));
        return e ? [e] : [];
      });
    return {
      intend: async (ids) => {
        const sends = of(ids, (i) => i);
        if (sends.length > 0)
          await runScript(
            this.redis,
            INTEND,
            sends.flatMap((e) => [e.key, e.chunks]),
            [KEEP_MS, ...sends.flatMap((e) => [e.recipientId.toString(), e.chunk])],
          );
      },
      drop: (ids) =>
        multi(
          ids,
          (i) => i,
          (tx, e) => tx.hdel(e.key, e.recipientId.toString()),
        ),
      ahead: async (rows) => {
        const sends = rows.flatMap((r) => {
          const e = at.get(r.recipientId);
          return e ? [{ e, r }] : [];
        });
        if (sends.length > 0)
          await runScript(
            this.redis,
            AHEAD,
            sends.map(({ e }) => e.key),
            sends.flatMap(({ e, r }) => [e.recipientId.toString(), serialize(r)]),
          );
      },
      forget: async (rows) => {
        const sends = of(rows, (r) => r.recipientId);
        if (sends.length > 0)
          await runScript(
            this.redis,
            FORGET,
            sends.flatMap((e) => [e.key, e.chunks]),
            sends.map((e) => e.chunk),
          );
      },
      keep: (rows) =>
        multi(
          rows,
          (r) => r.recipientId,
          (tx, e, r) => {
            tx.hset(e.key, e.recipientId.toString(), serialize(r)).pexpire(e.key, KEEP_MS);
            tx.sadd(e.chunks, e.chunk).pexpire(e.chunks, KEEP_MS).sadd(this.batchesKey, e.batchId.toString());
          },
        ),
    };
  }

  /**
   * Writes back what the batch's journals hold (`write` records outcomes of recipients still unsent only, so a
   * row written twice changes nothing), then forgets it. With `ownChunk` (a chunk's run, which holds its lease)
   * only that chunk's journal, intents included: another chunk may be live, its journaled outcomes still in its
   * write buffer with receipts riding on them, and writing them here first would leave those receipts with
   * nothing to update. With `allIntents` (settlement: no chunk is live) every chunk, intents included.
   * Otherwise (the scheduler) every chunk's outcomes only.
   */
  async replay(
    batchId: bigint | string,
    write: (rows: SendOutcomeRow[]) => Promise<unknown>,
    opts: { ownChunk?: string; allIntents?: boolean } = {},
  ): Promise<ReplayCounts> {
    const counts: ReplayCounts = { outcomes: 0, lostInFlight: 0 };
    const chunks = opts.ownChunk === undefined ? await this.redis.smembers(this.chunksKey(batchId)) : [opts.ownChunk];
    for (const chunk of chunks) {
      const key = this.key(batchId, chunk);
      const hash = await this.redis.hgetall(key);
      const { outcomes, intents, outcomeFields } = readChunk(hash);
      const withIntents = opts.allIntents === true || chunk === opts.ownChunk;
      const rows = [...outcomes.values()];
      counts.outcomes += rows.length;
      // Written back: every field with an outcome, and (with intents) every field read.
      let fields = outcomeFields;
      if (withIntents) {
        for (const id of intents) {
          if (outcomes.has(id)) continue;
          rows.push({
            recipientId: BigInt(id),
            result: SendResult.FAILURE,
            providerMessageId: null,
            errorCode: LOST_IN_FLIGHT,
          });
          counts.lostInFlight += 1;
        }
        fields = Object.keys(hash);
      }
      if (rows.length > 0) await write(rows);
      if (fields.length > 0) await this.redis.hdel(key, ...fields);
      if ((await this.redis.hlen(key)) === 0) await this.redis.srem(this.chunksKey(batchId), chunk);
    }
    return counts;
  }

  /** Takes the batch off the scheduler's list once no outcome is kept for it. */
  async unlistIfEmpty(batchId: bigint | string): Promise<void> {
    if ((await this.redis.scard(this.chunksKey(batchId))) === 0) {
      await this.redis.srem(this.batchesKey, batchId.toString());
    }
  }
}
