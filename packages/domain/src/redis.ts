// Every process's Redis connections come from here: one Redis at REDIS_URL (the default), or a Redis Cluster when
// REDIS_CLUSTER_NODES names its nodes (docs/operations.md, "Redis Cluster"). The rest of the code takes a
// RedisConnection and asks isClustered() where a cluster needs something else: keys that meet in one script,
// MULTI or pipeline share a hash tag (slotGroup), and a SCAN walks every master (masters).
import { createHash } from "node:crypto";
import { Cluster, type ClusterNode, Redis, type RedisOptions } from "ioredis";

/** One Redis or a Redis Cluster: both take the same commands (ioredis' Commander), pipelines and MULTI. */
export type RedisConnection = Redis | Cluster;

/** A cluster node as REDIS_CLUSTER_NODES gives it, and what its URL form carries for every node. */
export interface ClusterSettings {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

export interface RedisSettings {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: ClusterSettings | undefined;
}

/**
 * REDIS_CLUSTER_NODES: comma-separated `host:port` (IPv6 in brackets), or `redis://[user:password@]host:port` /
 * `rediss://...` (TLS). A password or TLS given on one entry applies to every node; entries must not disagree.
 * Throws an Error with the reason (config.ts turns it into a configuration error).
 */
export function parseClusterNodes(text: string): ClusterSettings {
  const entries = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (entries.length === 0) throw new Error("must name at least one node as host:port");
  const out: ClusterSettings = { nodes: [], tls: false };
  const schemes = new Set<string>();
  for (const entry of entries) {
    const hasScheme = /^[a-z]+:\/\//i.test(entry);
    let url: URL;
    try {
      url = new URL(hasScheme ? entry : `redis://${entry}`);
    } catch {
      throw new Error(`"${entry}" is not host:port`);
    }
    if (url.protocol !== "redis:" && url.protocol !== "rediss:")
      throw new Error(`"${entry}": only redis:// or rediss:// addresses`);
    if (url.port === "" || (url.pathname !== "" && url.pathname !== "/") || url.search !== "")
      throw new Error(`"${entry}" must be host:port (a port, no database or options: a cluster has database 0 only)`);
    if (hasScheme) schemes.add(url.protocol); // a bare host:port takes the others' scheme
    const username = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    if (password !== "") {
      if (out.password !== undefined && out.password !== password)
        throw new Error("entries give different passwords: a cluster's nodes share one");
      out.password = password;
      if (username !== "") out.username = username;
    }
    out.nodes.push({ host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port: Number(url.port) });
  }
  if (schemes.size > 1) throw new Error("entries mix redis:// and rediss://");
  out.tls = schemes.has("rediss:");
  return out;
}

/** A description of where Redis is, without credentials (logs, the outage line). */
export function redisAddress(settings: RedisSettings): string {
  const nodes = settings.REDIS_CLUSTER_NODES?.nodes;
  if (nodes) return `cluster ${nodes.map((n) => `${n.host}:${n.port}`).join(",")}`;
  try {
    const u = new URL(settings.REDIS_URL);
    return `${u.hostname || "localhost"}:${u.port || 6379}`;
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * A new connection: `new Redis(REDIS_URL, options)`, or with REDIS_CLUSTER_NODES a Cluster whose node connections
 * take `options` (and its own reconnects follow options.retryStrategy). BullMQ workers need
 * maxRetriesPerRequest: null, which applies to both.
 */
export function connectRedis(settings: RedisSettings, options: RedisOptions = {}): RedisConnection {
  const cluster = settings.REDIS_CLUSTER_NODES;
  if (cluster === undefined) return new Redis(settings.REDIS_URL, options);
  const { retryStrategy, lazyConnect, ...nodeOptions } = options;
  const redisOptions: RedisOptions = {
    ...nodeOptions,
    ...(cluster.username !== undefined ? { username: cluster.username } : {}),
    ...(cluster.password !== undefined ? { password: cluster.password } : {}),
    ...(cluster.tls ? { tls: {} } : {}),
  };
  const nodes: ClusterNode[] = cluster.nodes.map((n) => ({ host: n.host, port: n.port }));
  return new Cluster(nodes, {
    redisOptions,
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(retryStrategy ? { clusterRetryStrategy: retryStrategy } : {}),
  });
}

/** A second connection like `conn` (a subscriber, BullMQ's own), with some options changed. */
export function duplicateRedis(conn: RedisConnection, options: RedisOptions = {}): RedisConnection {
  if (!isClustered(conn)) return conn.duplicate(options);
  const { retryStrategy, lazyConnect, ...nodeOptions } = options;
  return conn.duplicate(undefined, {
    redisOptions: { ...conn.options.redisOptions, ...nodeOptions },
    ...(lazyConnect !== undefined ? { lazyConnect } : {}),
    ...(retryStrategy ? { clusterRetryStrategy: retryStrategy } : {}),
  });
}

/** Whether a connection (or BullMQ connection options) is a Redis Cluster. */
export function isClustered(conn: unknown): conn is Cluster {
  return typeof conn === "object" && conn !== null && "isCluster" in conn && conn.isCluster === true;
}

/**
 * The key prefix of a group of keys that meet in one Lua script or MULTI and are named after the prefix (the
 * receipt journal and the long SMS parts): `{<prefix><group>}:` on a cluster, `prefix` itself on one Redis.
 */
export function slotPrefix(conn: RedisConnection, prefix: string, group: string): string {
  return isClustered(conn) ? `{${prefix}${group}}:` : prefix;
}

/** MGET on one Redis; one GET per key on a cluster, where the keys may live on different nodes. */
export async function getMany(conn: RedisConnection, keys: string[]): Promise<Array<string | null>> {
  return isClustered(conn) ? Promise.all(keys.map((k) => conn.get(k))) : conn.mget(keys);
}

/**
 * Where a SCAN must look: every master of a cluster (each holds its own slots' keys), or the one Redis. Commands on
 * a node's connection reach only that node: use them for keys that SCAN found there.
 */
export function masters(conn: RedisConnection): Redis[] {
  return isClustered(conn) ? conn.nodes("master") : [conn];
}

/**
 * The name of a group of keys that meet in one Lua script, MULTI or pipeline: on a cluster `{name}`, a hash tag,
 * so that every key built on it lands in one slot; on one Redis the name unchanged, so an existing installation's
 * keys keep their names. Build the group's keys as `${slotGroup(conn, name)}...`.
 */
export function slotGroup(conn: RedisConnection, name: string): string {
  return isClustered(conn) ? `{${name}}` : name;
}

/**
 * A Lua script and its SHA-1: run by its hash (EVALSHA), the text sent only when Redis does not have it (first use,
 * a restart, SCRIPT FLUSH). EVAL with the text would send and hash the whole script on every call: on the rate
 * limit of every /v1 request that was the API's largest single cost (docs/benchmarks.md, issue 20).
 */
export interface RedisScript {
  script: string;
  sha: string;
}

export function redisScript(script: string): RedisScript {
  return { script, sha: createHash("sha1").update(script).digest("hex") };
}

/** Runs a script once (EVALSHA, then EVAL when Redis does not have it yet). */
export function runScript(
  redis: RedisConnection,
  { script, sha }: RedisScript,
  keys: readonly string[],
  args: ReadonlyArray<string | number>,
): Promise<unknown> {
  return redis
    .evalsha(sha, keys.length, ...keys, ...args)
    .catch((err: unknown) =>
      isNoScript(err) ? redis.eval(script, keys.length, ...keys, ...args) : Promise.reject(err),
    );
}

function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith("NOSCRIPT");
}
