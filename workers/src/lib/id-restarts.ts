// When an SMSC account's message ids last started again (an SMSC restart, a counter wrap-around), as the SMPP
// adapters see it: the first id accepted on a new bind below the highest the account gave out before (adapter.ts).
// Ids given out after that time name other messages than the same ids before it, so delivery-report.ts matches a
// receipt that arrived after it only to messages sent after it (and one that arrived before, only to messages
// sent before). In Redis per account (host, port, system id: receiptAccount), kept 8 days (beyond the receipt
// window):
//   - `smsc-ids-restarted:<account>`: the restart's time. Every process bound to the account sees the restart on
//     its own rebind, seconds apart: the first time seen within `mergeMs` stands, so a later rebind does not move
//     it past the new ids' first messages;
//   - `smsc-ids-highest:<account>`: the highest id any adapter of the account accepted (decimal, whatever the
//     SMSC's spelling), written by each adapter at most once a second and when its bind ends, read by each new
//     bind before its first submit: a process started after the SMSC restarted (a deploy, a crash) has no bind of
//     its own to compare with, only this. A restart makes its first id the highest; a write observed before the
//     kept restart (an adapter still holding a pre-restart highest, or a write delayed in flight) is ignored, so
//     the old high value never comes back. The times are the adapters' clocks.
import { type RedisConnection, redisScript, runScript, slotGroup } from "@switchboard/domain/redis";

/** Longer than the receipt window (7 days): an older restart no longer splits any message's candidates. */
const KEEP_MS = 8 * 24 * 3600 * 1000;
/** Restarts seen within this long of the kept one are the same restart (other processes' rebinds). */
const MERGE_MS = 60_000;

// Ids are compared as decimal strings without leading zeros: an SMSC's 64-bit ids are beyond Lua's doubles.
const ABOVE = `
local function above(a, b)
  if #a ~= #b then return #a > #b end
  return a > b
end`;

// KEYS: restart time, highest id. ARGV: at, mergeMs, keepMs, the restart's first id ('' when not known).
const MARK = redisScript(`${ABOVE}
local kept = tonumber(redis.call('GET', KEYS[1]) or '0')
local id = ARGV[4]
if kept < tonumber(ARGV[1]) - tonumber(ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  if id ~= '' then redis.call('SET', KEYS[2], id, 'PX', ARGV[3]) end
  return 1
end
if id ~= '' then
  local highest = redis.call('GET', KEYS[2])
  if not highest or above(id, highest) then redis.call('SET', KEYS[2], id, 'PX', ARGV[3]) end
end
return 0`);

// KEYS: restart time, highest id. ARGV: id, observedAt, keepMs.
const NOTE = redisScript(`${ABOVE}
local restarted = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[2]) < restarted then return 0 end
local highest = redis.call('GET', KEYS[2])
if highest and not above(ARGV[1], highest) then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return 1`);

/** What the SMPP adapter of one account reads and writes (adapter.ts, SmppIdMemory). */
export interface AccountIds {
  highest(): Promise<bigint | undefined>;
  note(highest: bigint, observedAt: number): Promise<void>;
  restarted(id: bigint, at: number): Promise<void>;
}

export class IdRestarts {
  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {}

  private key(account: string): string {
    // The scripts take both keys of an account: on a cluster they share its hash tag (…:{<account>}).
    return `${this.prefix}smsc-ids-restarted:${slotGroup(this.redis, account)}`;
  }

  private highestKey(account: string): string {
    return `${this.prefix}smsc-ids-highest:${slotGroup(this.redis, account)}`;
  }

  /**
   * The account's ids started again now (or at `at`), at `id` when known (it becomes the kept highest). True when
   * this is a new restart, not one already kept.
   */
  async mark(account: string, at = Date.now(), id?: bigint): Promise<boolean> {
    const keys = [this.key(account), this.highestKey(account)];
    return (await runScript(this.redis, MARK, keys, [at, MERGE_MS, KEEP_MS, id?.toString() ?? ""])) === 1;
  }

  /** When the account's ids last started again, if within the receipt window. */
  async last(account: string): Promise<Date | undefined> {
    const value = await this.redis.get(this.key(account));
    return value === null ? undefined : new Date(Number(value));
  }

  /** The highest id an adapter of the account accepted, as kept. */
  async highest(account: string): Promise<bigint | undefined> {
    const value = await this.redis.get(this.highestKey(account));
    return value !== null && /^[0-9]{1,40}$/.test(value) ? BigInt(value) : undefined;
  }

  /** An adapter's highest id, accepted at `observedAt`; ignored when older than the kept restart. True if kept. */
  async note(account: string, highest: bigint, observedAt: number): Promise<boolean> {
    const keys = [this.key(account), this.highestKey(account)];
    return (await runScript(this.redis, NOTE, keys, [highest.toString(), observedAt, KEEP_MS])) === 1;
  }

  /** The account's view for its SMPP adapters. */
  of(account: string): AccountIds {
    return {
      highest: () => this.highest(account),
      note: async (highest, observedAt) => {
        await this.note(account, highest, observedAt);
      },
      restarted: async (id, at) => {
        await this.mark(account, at, id);
      },
    };
  }
}
