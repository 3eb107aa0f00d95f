// When an SMSC account's message ids last started again (an SMSC restart, a counter wrap-around), as the SMPP
// adapters see it: the first id accepted on a new bind below the highest of the bind before (adapter.ts). Ids
// given out after that time name other messages than the same ids before it, so delivery-report.ts matches a
// receipt that arrived after it only to messages sent after it (and one that arrived before, only to messages
// sent before). In Redis per account (host, port, system id: receiptAccount), one time, kept 8 days (beyond the
// receipt window). Every process bound to the account sees the restart on its own rebind, seconds apart: the
// first time seen within `mergeMs` stands, so a later rebind does not move it past the new ids' first messages.
import type { Redis } from "ioredis";

/** Longer than the receipt window (7 days): an older restart no longer splits any message's candidates. */
const KEEP_MS = 8 * 24 * 3600 * 1000;
/** Restarts seen within this long of the kept one are the same restart (other processes' rebinds). */
const MERGE_MS = 60_000;

const MARK = `
local kept = tonumber(redis.call('GET', KEYS[1]) or '0')
if kept < tonumber(ARGV[1]) - tonumber(ARGV[2]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return 1
end
return 0`;

export class IdRestarts {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(account: string): string {
    return `${this.prefix}smsc-ids-restarted:${account}`;
  }

  /** The account's ids started again now (or at `at`). True when this is a new restart, not one already kept. */
  async mark(account: string, at = Date.now()): Promise<boolean> {
    return (await this.redis.eval(MARK, 1, this.key(account), at, MERGE_MS, KEEP_MS)) === 1;
  }

  /** When the account's ids last started again, if within the receipt window. */
  async last(account: string): Promise<Date | undefined> {
    const value = await this.redis.get(this.key(account));
    return value === null ? undefined : new Date(Number(value));
  }
}
