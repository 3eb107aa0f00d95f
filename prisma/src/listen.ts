// A PostgreSQL LISTEN connection that stays up: caches that must never outlive a change (the API's session
// check) listen for NOTIFY from triggers, and stop trusting what they hold whenever this connection is down,
// since a notification sent while it was down is lost.
import pg from "pg";

export interface ListenHandlers {
  /** A notification on one of the channels. */
  notify(channel: string, payload: string): void;
  /** true once LISTEN is in place (nothing is missed from then on); false as soon as the connection is lost. */
  live(up: boolean): void;
  /** A connection attempt failed or the connection broke (it is tried again). */
  error?(err: Error): void;
}

export interface Listener {
  close(): Promise<void>;
}

/** Listens on `channels` over a dedicated connection, reconnecting with a backoff of up to 5 s. */
export function listen(databaseUrl: string, channels: readonly string[], on: ListenHandlers): Listener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: "switchboard-listen" });
    client = c;
    let down = false;
    const lost = (err?: Error) => {
      if (down) return;
      down = true;
      on.live(false);
      if (err) on.error?.(err);
      c.removeAllListeners("notification");
      c.end().catch(() => undefined);
      if (closed) return;
      failures++;
      retry = setTimeout(connect, Math.min(5_000, 100 * 2 ** Math.min(failures, 6)));
    };
    c.on("error", lost);
    c.on("end", () => lost());
    c.on("notification", (n) => on.notify(n.channel, n.payload ?? ""));
    try {
      await c.connect();
      for (const ch of channels) await c.query(`LISTEN "${ch.replace(/"/g, '""')}"`);
      if (closed) return void (await c.end().catch(() => undefined));
      failures = 0;
      on.live(true);
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      on.live(false);
      await client?.end().catch(() => undefined);
    },
  };
}
