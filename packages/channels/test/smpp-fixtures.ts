// What the SMPP tests share: a simulator and an adapter bound to it, both closed after each test, a bounded poll,
// and a free port for a peer started as its own process. Each test file registers `afterEach(closeAll)`.
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { createSmppAdapter, type SmppAdapter, type SmppConfigInput } from "../src/index";
import { type SmscSimulator, startSmscSimulator } from "../src/simulators/index";

const cleanups: Array<() => Promise<void>> = [];

/** Closes what the test opened, newest first. */
export async function closeAll(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()?.();
}

/** Runs `close` after the test, with the rest. */
export function closeAfter(close: () => Promise<void>): void {
  cleanups.push(close);
}

export async function simulator(options: Parameters<typeof startSmscSimulator>[0] = {}): Promise<SmscSimulator> {
  const sim = await startSmscSimulator(options);
  cleanups.push(() => sim.close());
  return sim;
}

export function adapter(port: number, config: Partial<SmppConfigInput> = {}): SmppAdapter {
  const a = createSmppAdapter({
    host: "127.0.0.1",
    port,
    systemId: "switchboard",
    password: "secret",
    reconnectInitialMs: 20,
    reconnectMaxMs: 200,
    submitTimeoutMs: 5_000,
    ...config,
  });
  cleanups.push(() => a.close());
  return a;
}

/** Polls until the condition holds; throws (rather than hangs) after the bound. */
export async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A port free on loopback now (for a peer that takes its port on its command line or in its configuration). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
