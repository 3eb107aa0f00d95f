// bench:api's single sends come from this process, as Kannel's sendsms load comes from a load driver of its own
// (../shared/bench/kannel): the API's process serves requests and nothing else, and its CPU is its own. Driven by
// the bench over IPC (SendDriver below): one command at a time, answered with its figures.
import { fork } from "node:child_process";
import { once } from "node:events";
import { ProductCode, SubmitMode, TaskType } from "@switchboard/contracts";
import { Pool } from "undici";
import { type Driven, drive, type Offered, offer } from "./load";

/** Where and as whom the driver sends. */
export interface SendTarget {
  base: string;
  secretKey: string;
  productId: number;
  /** Connections to the API (one per caller in flight). */
  connections: number;
}

type Command =
  | { op: "drive"; mode: "1" | "2"; n: number; inFlight: number }
  | { op: "offer"; mode: "1" | "2"; rate: number; seconds: number; maxInFlight: number };
type Reply = { ok: true; result: Driven | Offered } | { ok: false; error: string };

/** The bench's side: a driver process, and its commands as promises. */
export class SendDriver {
  private readonly proc = fork(new URL(import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });

  constructor(target: SendTarget) {
    this.proc.send(target);
  }

  get pid(): number {
    return this.proc.pid as number;
  }

  /** `n` single sends of `mode`, `inFlight` at once (a closed loop). */
  drive(mode: "1" | "2", n: number, inFlight: number): Promise<Driven> {
    return this.ask({ op: "drive", mode, n, inFlight }) as Promise<Driven>;
  }

  /** Single sends of `mode` offered at `rate` a second for `seconds` (an open loop). */
  offer(mode: "1" | "2", rate: number, seconds: number, maxInFlight: number): Promise<Offered> {
    return this.ask({ op: "offer", mode, rate, seconds, maxInFlight }) as Promise<Offered>;
  }

  private async ask(command: Command): Promise<Driven | Offered> {
    const answer = once(this.proc, "message") as Promise<[Reply]>;
    this.proc.send(command);
    const [reply] = await answer;
    if (!reply.ok) throw new Error(`send driver: ${reply.error}`);
    return reply.result;
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    this.proc.kill("SIGTERM");
    await once(this.proc, "exit");
  }
}

/** The driver process: the first message is its target, then one command at a time. */
function serve(): void {
  let target: SendTarget | undefined;
  let pool: Pool | undefined;
  let numberSeq = 0;
  const send = (mode: "1" | "2") => async () => {
    const t = target as SendTarget;
    const n = numberSeq++;
    const number = `+1212${String(3_000_000 + n).padStart(7, "0")}`;
    const content = { product: ProductCode.SMS, text: `Your code is ${String(n % 1_000_000).padStart(6, "0")}` };
    const common = { productId: t.productId, taskType: TaskType.MESSAGE, content };
    const body =
      mode === "1"
        ? { ...common, submitMode: SubmitMode.SINGLE, number }
        : { ...common, submitMode: SubmitMode.MULTIPLE, numbers: [number] };
    const res = await (pool as Pool).request({
      path: "/v1/messages",
      method: "POST",
      headers: { authorization: `Bearer ${t.secretKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`POST /v1/messages: ${res.statusCode} ${text.slice(0, 200)}`);
    const answer = JSON.parse(text) as { code: number; message: string };
    if (answer.code !== 0) throw new Error(`refused: ${answer.message}`);
  };
  process.on("message", async (m: SendTarget | Command) => {
    if (!("op" in m)) {
      target = m;
      pool = new Pool(m.base, { connections: m.connections });
      return;
    }
    try {
      const result =
        m.op === "drive"
          ? await drive(m.n, m.inFlight, send(m.mode))
          : await offer(m.rate, m.seconds, m.maxInFlight, send(m.mode));
      process.send?.({ ok: true, result } satisfies Reply);
    } catch (err) {
      process.send?.({ ok: false, error: (err as Error).message } satisfies Reply);
    }
  });
  process.on("SIGTERM", () => {
    void pool?.close().finally(() => process.exit(0));
  });
}

if (process.send && process.argv[1] === new URL(import.meta.url).pathname) serve();
