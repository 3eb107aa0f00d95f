// The parts of long SMS and what their receipts said, shared by every worker process: the SMSC hands each part's
// receipt to any receiver bind of the account, so the parts of one message come in on several processes, and a
// process that restarted has lost its memory. The SMPP adapter folds them (multipart-receipts.ts: the store keeps,
// foldParts decides); this is its store when the workers give it one (adapter-pool.ts, useSharedState).
//
// In Redis, per SMSC account (receiptAccount), part ids, statuses, error codes and done dates only (never numbers
// or text), each kept for maxAgeMs from the message's first accepted part:
//   - `sms-part:<account>:<part id>` -> "<message key> <part index>", for a receipt to find its message;
//   - `sms-parts:<account>:<message key>`: a hash, `n` parts, `i<k>` part k's id, `r<k>` part k's receipt, `c` how
//     many parts reported, `done` once folded. A folded message stays `doneKeepMs`: a part the SMSC delivers again
//     (a process died after the fold, before the folded receipt was taken) gets the fold again (recorded once).
// One Lua script carries the accepted parts, refused messages and receipts of each TCP read (run right after the
// read is parsed, process.nextTick; on the Redis thread, which answers it within the turn: redis-thread.ts), in that
// order: it is atomic, so two processes taking the last two parts at once fold the message exactly once. A part
// is written when its submit is answered; a receipt that reaches another process before that write (within a
// millisecond of the answer: no SMSC's handset round trip is that fast) passes through as it is. Short messages
// write nothing when sent. Every receipt is looked up (a part sent by another process looks like any receipt), and
// one that is no part is written to the receipt journal by the same script (receipt-journal.ts, entry()): the
// lookup takes the round trip the journal's write took before, so a receipt's acknowledgement waits no longer.
import { randomBytes } from "node:crypto";
import type { DeliveryReport, Logger, SmppAdapter } from "@switchboard/channels";
import { isClustered, type RedisConnection, redisScript, runScript } from "@switchboard/domain/redis";
import type { JournalEntry, ReceiptJournal } from "./receipt-journal";
import type { RedisThread } from "./redis-thread";

/** The store an SMPP adapter takes (multipart-receipts.ts, PartStore). */
type PartStore = NonNullable<Parameters<SmppAdapter["useSharedState"]>[0]["parts"]>;
type LongMessage = ReturnType<PartStore["open"]>;
type PartFolding = Awaited<ReturnType<PartStore["report"]>>;

export interface PartReceiptsOptions {
  /** How long a long message waits for its parts' receipts (an SMS's validity period is days at most). */
  maxAgeMs: number;
  /** How long a folded message stays to answer a part delivered again. */
  doneKeepMs: number;
  /** Where a receipt that is no part is journaled by the lookup's script (none: the router journals it). */
  journal?: ReceiptJournal;
  /**
   * Runs the turn's script so that a turn with receipts has its answer within the turn (redis-thread.ts): the
   * receipts are acknowledged to the SMSC at once, not a turn later. Every turn goes through it (a part's
   * registration before its receipt's lookup). None: the ordinary connection.
   */
  thread?: RedisThread;
}

export const DEFAULT_PART_RECEIPTS: PartReceiptsOptions = { maxAgeMs: 3 * 24 * 3_600_000, doneKeepMs: 3_600_000 };

// Keys are built here from the prefix: a receipt's message is known only once its part is read. ARGV: prefix, ttl,
// keep, the receipt journal's owners set, this process, now, '1' to list it; then the turn's parts, refused messages
// and receipts (account, id, part receipt, journal hash, field, entry: the last three '' when not journaled here).
const TURN = `
local prefix, ttl, keep = ARGV[1], ARGV[2], ARGV[3]
local owners, owner, now, list = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local function messageKey(account, key) return prefix .. 'sms-parts:' .. account .. ':' .. key end
local function partKey(account, id) return prefix .. 'sms-part:' .. account .. ':' .. id end
local journaled = false
local i = 8
local n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local account, key, parts, index, id = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  i = i + 5
  local m = messageKey(account, key)
  if redis.call('HSETNX', m, 'n', parts) == 1 then redis.call('PEXPIRE', m, ttl) end
  redis.call('HSET', m, 'i' .. index, id)
  redis.call('SET', partKey(account, id), key .. ' ' .. index, 'PX', ttl)
end
n = tonumber(ARGV[i]); i = i + 1
for _ = 1, n do
  local account, key = ARGV[i], ARGV[i + 1]
  i = i + 2
  local m = messageKey(account, key)
  local parts = tonumber(redis.call('HGET', m, 'n') or '0')
  for p = 0, parts - 1 do
    local id = redis.call('HGET', m, 'i' .. p)
    if id then redis.call('DEL', partKey(account, id)) end
  end
  redis.call('DEL', m)
end
local function folded(m, parts)
  local fields = { 'i0' }
  for p = 0, parts - 1 do fields[#fields + 1] = 'r' .. p end
  return redis.call('HMGET', m, unpack(fields))
end
local out = {}
n = tonumber(ARGV[i]); i = i + 1
-- Every receipt's part reference in one call per 1,000 (a call per receipt costs more than the lookup), and every
-- journal entry in one HSET per 1,000 at the end (nothing here reads the journal).
local refs = {}
for from = 1, n, 1000 do
  local names = {}
  for r = from, math.min(n, from + 999) do
    local at = i + (r - 1) * 6
    names[#names + 1] = partKey(ARGV[at], ARGV[at + 1])
  end
  local got = redis.call('MGET', unpack(names))
  for k = 1, #names do refs[from + k - 1] = got[k] end
end
local entries, journalKey = {}, nil
local function journalFlush()
  if #entries > 0 then redis.call('HSET', journalKey, unpack(entries)) end
  entries = {}
end
for r = 1, n do
  local account, id, receipt, journal, field, entry = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], ARGV[i + 5]
  i = i + 6
  local ref = refs[r]
  local key, index
  if ref then key, index = string.match(ref, '^(%S+) (%d+)$') end
  local m = key and messageKey(account, key)
  local parts = m and tonumber(redis.call('HGET', m, 'n') or '0') or 0
  if parts == 0 then
    out[r] = 0
    if field ~= '' then
      if journal ~= journalKey or #entries >= 2000 then
        journalFlush()
        journalKey = journal
      end
      entries[#entries + 1] = field
      entries[#entries + 1] = entry
      journaled = true
    end
  elseif redis.call('HSETNX', m, 'r' .. index, receipt) == 0 then
    -- this part again: the fold again once there is one (see the header), else still waiting
    if redis.call('HEXISTS', m, 'done') == 1 then out[r] = folded(m, parts) else out[r] = 1 end
  elseif redis.call('HINCRBY', m, 'c', 1) < parts or redis.call('HEXISTS', m, 'i0') == 0 then
    out[r] = 1
  else
    redis.call('HSET', m, 'done', '1')
    redis.call('PEXPIRE', m, keep)
    for p = 0, parts - 1 do
      local part = redis.call('HGET', m, 'i' .. p)
      if part then redis.call('PEXPIRE', partKey(account, part), keep) end
    end
    out[r] = folded(m, parts)
  end
end
journalFlush()
if journaled and list == '1' then redis.call('ZADD', owners, now, owner) end
return out`;
/** Run by its hash: the script is not sent (nor hashed by Redis) on every turn of receipts. */
const TURN_SCRIPT = redisScript(TURN);

interface Waiting {
  receipt: DeliveryReport;
  entry: JournalEntry | undefined;
  resolve: (folding: PartFolding) => void;
  reject: (err: unknown) => void;
}

/** A part's receipt as kept: [status, error code, done date in ms]. */
type Stored = [DeliveryReport["status"], string | null, number | null];

export class PartReceipts {
  /** Message keys: unique per process (a random prefix) and per message (a counter). */
  private readonly keyPrefix = randomBytes(4).toString("hex");
  private next = 0;
  private registrations: string[] = [];
  private abandons: string[] = [];
  private reports: string[] = [];
  private waiting: Waiting[] = [];
  private scheduled = false;
  private failing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly opts: PartReceiptsOptions = DEFAULT_PART_RECEIPTS,
  ) {}

  /** The store of one SMSC account's adapter, of this channel (the receipt journal names a receipt's channel). */
  of(account: string, channelId: number): PartStore {
    return {
      open: (parts) => ({ key: `${this.keyPrefix}${(this.next++).toString(36)}`, parts }),
      accepted: (message: LongMessage, index: number, id: string) => {
        this.registrations.push(account, message.key, String(message.parts), String(index), id);
        this.schedule();
      },
      abandon: (message: LongMessage) => {
        this.abandons.push(account, message.key);
        this.schedule();
      },
      report: (receipt: DeliveryReport) =>
        new Promise<PartFolding>((resolve, reject) => {
          const stored: Stored = [receipt.status, receipt.errorCode ?? null, receipt.doneAt?.getTime() ?? null];
          const entry = this.opts.journal?.entry(channelId, receipt);
          this.reports.push(
            account,
            receipt.providerMessageId,
            JSON.stringify(stored),
            entry?.key ?? "",
            entry?.token ?? "",
            entry?.value ?? "",
          );
          this.waiting.push({ receipt, entry, resolve, reject });
          this.schedule();
        }),
    };
  }

  /** The turn's script, sent whole only when Redis does not have it yet (its first use, or after a restart). */
  private run(args: Array<string | number>, receipts: boolean): Promise<unknown> {
    // Its keys are built in the script: on a cluster one of them (they share the receipts' hash tag, deps.ts)
    // is named as the script's key, so that it runs on the node holding them.
    const keys = isClustered(this.redis) ? [this.prefix] : [];
    if (this.opts.thread) return this.opts.thread.run(TURN_SCRIPT, keys, args, receipts);
    return runScript(this.redis, TURN_SCRIPT, keys, args);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // Right after the read that parsed them, not at the end of the turn: the receipts' acknowledgements go out
    // before the rest of the turn's work, and the SMSC sends the next window of receipts meanwhile.
    process.nextTick(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const { registrations, abandons, reports, waiting } = this;
    this.registrations = [];
    this.abandons = [];
    this.reports = [];
    this.waiting = [];
    const journal = this.opts.journal;
    const list = journal !== undefined && !journal.isListed;
    const args = [
      this.prefix,
      this.opts.maxAgeMs,
      this.opts.doneKeepMs,
      journal?.ownersKey ?? "",
      journal?.owner ?? "",
      Date.now(),
      list ? "1" : "",
      registrations.length / 5,
      ...registrations,
      abandons.length / 2,
      ...abandons,
      waiting.length,
      ...reports,
    ];
    this.run(args, waiting.length > 0).then(
      (result) => {
        this.failing = false;
        const answers = result as Array<number | Array<string | null>>;
        waiting.forEach((w, i) => {
          const answer = folding(answers[i]);
          // Journaled by the script: the router takes it as such (no write of its own).
          if (answer === "not_a_part" && w.entry !== undefined) journal?.wrote(w.receipt, w.entry, list);
          w.resolve(answer);
        });
      },
      (err: unknown) => {
        // Receipts are answered ESME_RX_T_APPN by the adapter (the SMSC delivers them again); parts written in
        // this turn are not kept: their receipts pass through as they are.
        if (!this.failing) this.logger.warn({ err }, "long SMS parts not shared: part receipts may pass unfolded");
        this.failing = true;
        for (const w of waiting) w.reject(err);
      },
    );
  }
}

function folding(answer: number | Array<string | null> | undefined): PartFolding {
  if (answer === 1) return "waiting";
  if (!Array.isArray(answer)) return "not_a_part";
  const [firstId, ...stored] = answer;
  if (!firstId || stored.some((s) => s === null)) return "waiting";
  return {
    firstId,
    parts: stored.map((s) => {
      const [status, errorCode, doneAt] = JSON.parse(s as string) as Stored;
      return {
        status,
        ...(errorCode !== null ? { errorCode } : {}),
        ...(doneAt !== null ? { doneAt: new Date(doneAt) } : {}),
      };
    }),
  };
}
