// The worker thread of redis-thread.ts: runs the scripts it is sent on a Redis connection of its own and posts each
// answer back on the port it was given, then bumps the shared counter and wakes the main thread, which may be
// waiting for that answer synchronously (Atomics.wait).
import { type MessagePort, workerData } from "node:worker_threads";
import { connectRedis, type RedisSettings, runScript } from "@switchboard/domain/redis";
import { type ScriptAnswer, type ScriptRequest, SIGNAL_ANSWERED, SIGNAL_READY } from "./redis-thread";

interface ThreadData {
  settings: RedisSettings;
  port: MessagePort;
  signal: SharedArrayBuffer;
}

const { settings, port, signal } = workerData as ThreadData;
const state = new Int32Array(signal);
// Commands wait for a reconnect rather than fail after a few retries: the main thread bounds its own wait, and a
// late answer still reaches the caller's promise.
const redis = connectRedis(settings, {
  maxRetriesPerRequest: null,
  retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 5_000),
});
// The main thread's own connection says Redis is away; this one only must not end the thread.
redis.on("error", () => undefined);
// The main thread waits for answers only while this connection is ready (until then they would not come in time).
redis.on("ready", () => Atomics.store(state, SIGNAL_READY, 1));
redis.on("close", () => Atomics.store(state, SIGNAL_READY, 0));

port.on("message", (request: ScriptRequest) => {
  runScript(redis, request, request.keys, request.args).then(
    (value) => answer({ id: request.id, ok: true, value }),
    (err: unknown) => answer({ id: request.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});

function answer(message: ScriptAnswer): void {
  port.postMessage(message);
  Atomics.add(state, SIGNAL_ANSWERED, 1);
  Atomics.notify(state, SIGNAL_ANSWERED);
}
