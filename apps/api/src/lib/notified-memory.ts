// Rows the API reads on hot paths, held in this process and forgotten the moment they change: a trigger on their
// tables sends a PostgreSQL NOTIFY on every change, by any code path or by hand, and the entries it names (or all)
// are dropped; the next read loads them again. Entries are trusted only while the LISTEN connection is up (a
// notification sent while it is down is lost, so everything is forgotten when it drops and every read goes to
// the database until it is back), and age out after maxAgeMs as a bound on any surprise. Only what was found is
// held: a missing row is read again every time. Used by the single sends' checks (submit-memory.ts) and the
// signed-in user's own row (GET /user/info).
import { type Listener, listen } from "@switchboard/db";

export interface NotifiedMemoryOptions {
  databaseUrl: string;
  /** The NOTIFY channel its triggers send on. */
  channel: string;
  /** The keys a notification's payload names; null: forget everything. */
  keysOf?: (payload: string) => readonly string[] | null;
  /** Longest an entry is served without reading it again. */
  maxAgeMs?: number;
  /** Most entries held (all are dropped when it is reached: they are cheap to read again). */
  maxEntries?: number;
  onError?: (err: Error) => void;
}

export class NotifiedMemory {
  private readonly entries = new Map<string, { value: unknown; at: number }>();
  /** Bumped by every notification: a value read before a change must not be stored after it. */
  private epoch = 0;
  private live = false;
  private listener: Listener | undefined;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;

  constructor(private readonly opts: NotifiedMemoryOptions) {
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.maxEntries = opts.maxEntries ?? 50_000;
  }

  /** Starts listening in the background: until it is live every read goes to the database. */
  start(): void {
    this.listener = listen(this.opts.databaseUrl, [this.opts.channel], {
      notify: (_channel, payload) => this.forget(this.opts.keysOf?.(payload) ?? null),
      live: (up) => {
        this.forget(null);
        this.live = up;
      },
      error: (err) => this.opts.onError?.(err),
    });
  }

  async close(): Promise<void> {
    this.live = false;
    await this.listener?.close();
  }

  /** Drops the entries named (null: all of them). */
  forget(keys: readonly string[] | null): void {
    this.epoch++;
    if (keys === null) this.entries.clear();
    else for (const key of keys) this.entries.delete(key);
  }

  /** The value held under `key` while it can be trusted, else `load`'s (held when found). */
  async held<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.entries.get(key);
    if (hit && this.live && Date.now() - hit.at < this.maxAgeMs) return hit.value as T;
    const epoch = this.epoch;
    const value = await load();
    if (value !== null && this.live && epoch === this.epoch) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, at: Date.now() });
    }
    return value;
  }
}
