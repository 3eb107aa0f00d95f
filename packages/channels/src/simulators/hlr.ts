// HLR lookup simulator: the generic JSON lookup of packages/channels/src/hlr/lookup.ts on loopback HTTP, for SMS
// screening in tests and `npm start`. Which numbers are reachable is decided by a hash of the number (so the same
// number always answers the same), by configurable shares; numbers ending 0000 are never reachable (as the SMSC
// simulator refuses them). A wrong bearer token answers 401, more lookups a second than allowed answer 429.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface HlrSimulatorOptions {
  /** Default 127.0.0.1. */
  host: string;
  /** 0 (default) picks a free port. */
  port: number;
  /** The bearer token it requires; none: any request is answered. */
  token?: string | undefined;
  /** Shares (0..1) of numbers answered "unreachable" and "unknown". */
  unreachableShare: number;
  unknownShare: number;
  /** Lookup requests a second (one second of burst); 0 = unlimited. */
  requestsPerSecond: number;
}

export interface HlrSimulatorStats {
  requests: number;
  /** Numbers looked up. */
  numbers: number;
  authFailures: number;
  throttled: number;
}

export interface HlrSimulator {
  readonly port: number;
  /** The lookup URL to configure as an SMPP channel's lookupUrl. */
  readonly url: string;
  stats(): HlrSimulatorStats;
  /** The answer this simulator gives for a number. */
  statusOf(number: string): "reachable" | "unreachable" | "unknown";
  setOptions(options: Partial<HlrSimulatorOptions>): void;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_NUMBERS = 1_000;

export async function startHlrSimulator(input: Partial<HlrSimulatorOptions> = {}): Promise<HlrSimulator> {
  const options: HlrSimulatorOptions = {
    host: "127.0.0.1",
    port: 0,
    unreachableShare: 0.1,
    unknownShare: 0.02,
    requestsPerSecond: 0,
    ...input,
  };
  const stats: HlrSimulatorStats = { requests: 0, numbers: 0, authFailures: 0, throttled: 0 };
  let tokens = options.requestsPerSecond;
  let refilledAt = Date.now();

  const statusOf = (number: string): "reachable" | "unreachable" | "unknown" => {
    if (number.endsWith("0000")) return "unreachable";
    const h = createHash("sha256").update(number).digest().readUInt32BE(0) / 2 ** 32;
    if (h < options.unreachableShare) return "unreachable";
    if (h < options.unreachableShare + options.unknownShare) return "unknown";
    return "reachable";
  };

  const allowed = (): boolean => {
    if (options.requestsPerSecond <= 0) return true;
    const now = Date.now();
    tokens = Math.min(options.requestsPerSecond, tokens + ((now - refilledAt) / 1000) * options.requestsPerSecond);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };

  const server: Server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    stats.requests++;
    if (req.method !== "POST") return answer(405, { error: "POST a JSON body" });
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      stats.authFailures++;
      return answer(401, { error: "bad token" });
    }
    if (!allowed()) {
      stats.throttled++;
      return answer(429, { error: "too many lookups" }, { "retry-after": "1" });
    }
    readBody(req).then(
      (raw) => {
        let numbers: unknown;
        try {
          numbers = (JSON.parse(raw) as { numbers?: unknown }).numbers;
        } catch {
          return answer(400, { error: "not JSON" });
        }
        if (!Array.isArray(numbers) || numbers.length > MAX_NUMBERS || !numbers.every((n) => typeof n === "string"))
          return answer(400, { error: `numbers: an array of at most ${MAX_NUMBERS} strings` });
        stats.numbers += numbers.length;
        answer(200, {
          results: (numbers as string[]).map((number) => ({ number, status: statusOf(number), ported: false })),
        });
      },
      () => answer(413, { error: "body too large" }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${options.host}:${port}/lookup`,
    stats: () => ({ ...stats }),
    statusOf,
    setOptions: (o) => Object.assign(options, o),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error("too large"));
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
