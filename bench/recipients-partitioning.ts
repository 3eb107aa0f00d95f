// The recipients table plain and partitioned by RANGE on id, side by side (issue 16): one scratch database holds
// a plain copy of `recipients` and partitioned copies (10 and 50 partitions over the same rows, plus one partition
// ahead of the sequence), filled with the same --rows recipients spread over --batches batches, each batch's rows
// contiguous ids like the ingest writes them. On each table, the statements the platform runs:
//   - ingest: a 100,000-row batch inserted as materialize.ts does (10,000 rows per INSERT ... SELECT unnest)
//   - receipts: groups of 1,000 found by provider message id and updated as delivery-report.ts does
//   - send outcomes: groups of 1,000 found by id and updated as send-outcomes.ts does
//   - the batch screens: a batch's first page of recipients with its count, its counts per country and per
//     send result (the detail page, the scheduler's unsent probe)
//   - lookups: one recipient by id (the developer API's message), a dispatch chunk's id range
// The partitioned tables are also measured with a pruning hint (the batch's id range, a lower bound on the ids a
// receipt may match) to see what the planner saves when it can skip partitions.
//
//   npm run bench:partitioning [-- --rows 10000000 --batches 2000 --partitions 10,50 --by-id --keep]
//   (the shipped shape, one partition holding the rows and partitions ahead: --partitions 1)
//
// It creates its own database (bench_partitioning_*) and drops it at the end unless --keep.
import { randomBytes } from "node:crypto";
import { cpus, loadavg, totalmem } from "node:os";
import pg from "pg";

// (bench/lib/platform.ts has these too, but it loads the whole platform; this benchmark needs only pg)
function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}
const log = (msg: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

const ROWS = arg("rows", 10_000_000);
const BATCHES = arg("batches", 2_000);
const PARTITIONS = (process.argv[process.argv.indexOf("--partitions") + 1] ?? "")
  .split(",")
  .map(Number)
  .filter((n) => process.argv.includes("--partitions") && n > 0);
const PARTITION_COUNTS = PARTITIONS.length > 0 ? PARTITIONS : [10, 50];
const KEEP = process.argv.includes("--keep");
const INGEST_ROWS = 100_000;
const INGEST_RUNS = 3;
const GROUP = 1_000;
const GROUPS = 10;
const PAGE_BATCHES = 50;
const LOOKUPS = 2_000;

const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbName = `bench_partitioning_${randomBytes(4).toString("hex")}`;

interface Table {
  name: string;
  label: string;
  partitions: number;
}

const COLUMNS = `
  id bigint NOT NULL DEFAULT nextval('SEQ'),
  "batchId" bigint NOT NULL,
  phone varchar(16) NOT NULL,
  "countryCode" char(2) NOT NULL,
  "channelId" integer,
  segments smallint NOT NULL DEFAULT 1,
  price bigint NOT NULL,
  "sendResult" smallint NOT NULL DEFAULT 0,
  "receiveResult" smallint NOT NULL DEFAULT 0,
  "providerMessageId" varchar(64),
  "errorCode" varchar(32),
  "sentAt" timestamptz(3),
  "receivedAt" timestamptz(3),
  "readAt" timestamptz(3),
  "fallbackFrom" integer,
  "primaryPrice" bigint,
  "fallbackPrice" bigint`;

/** The provider message id of row i: a bijection of i onto 40 bits, in hex (as an SMSC's ids look). */
const messageIdOf = (i: bigint) => ((i * 2654435761n) % 1099511627776n).toString(16);
/** The last batches are recent: sent within the receipt window, receipts not in yet. */
const RECENT_BATCHES = Math.max(1, Math.round(BATCHES / 100));
const firstRowOf = (b: number) => Math.ceil(((b - 1) * ROWS) / BATCHES) + 1;

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}

/** Deterministic pseudo-random sample (a run compares tables on the same keys). */
function sample(count: number, from: number, to: number, seed: number): number[] {
  let x = seed;
  const out = new Set<number>();
  while (out.size < Math.min(count, to - from + 1)) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.add(from + ((x >>> 0) % (to - from + 1)));
  }
  return [...out];
}

async function main() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const db = new pg.Client({ connectionString: u.toString() });
  await db.connect();
  const started = performance.now();
  try {
    await db.query("SET maintenance_work_mem = '1GB'");
    await db.query("SET jit = off"); // as the platform's connections run (packages/db: createPrisma)
    const tables: Table[] = [
      { name: "r_plain", label: "plain", partitions: 0 },
      ...PARTITION_COUNTS.map((n) => ({
        name: `r_p${n}`,
        label: `${n} partition${n > 1 ? "s" : ""} + 1 ahead`,
        partitions: n,
      })),
    ];
    const fill: Record<string, number> = {};
    for (const t of tables) fill[t.name] = await create(db, t);
    await db.query("CHECKPOINT");

    const results: Record<string, Record<string, string>> = {};
    for (const t of tables) {
      log(`${t.label}: measuring`);
      results[t.label] = await measure(db, t, false);
      results[`${t.label} + hint`] = await measure(db, t, true);
    }
    printTable(results, fill, tables);
    log(`total ${fmt((performance.now() - started) / 1000, 0)} s`);
  } finally {
    await db.end();
    if (!KEEP) await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    else log(`kept database ${dbName}`);
    await admin.end();
  }
}

/** Creates and fills one table (indexes built after the load, as a restore would), returns its load seconds. */
async function create(db: pg.Client, t: Table): Promise<number> {
  const seq = `${t.name}_id_seq`;
  await db.query(`CREATE SEQUENCE ${seq} START ${ROWS + 1}`);
  const cols = COLUMNS.replace("SEQ", seq);
  const t0 = performance.now();
  if (t.partitions === 0) {
    await db.query(`CREATE TABLE ${t.name} (${cols})`);
  } else {
    await db.query(`CREATE TABLE ${t.name} (${cols}) PARTITION BY RANGE (id)`);
    const size = Math.ceil(ROWS / t.partitions);
    for (let p = 0; p < t.partitions; p++) {
      const from = p === 0 ? "MINVALUE" : String(p * size + 1);
      await db.query(
        `CREATE TABLE ${t.name}_${p} PARTITION OF ${t.name} FOR VALUES FROM (${from}) TO (${(p + 1) * size + 1})`,
      );
    }
    // ahead of the sequence, where new batches go
    await db.query(
      `CREATE TABLE ${t.name}_${t.partitions} PARTITION OF ${t.name} FOR VALUES FROM (${t.partitions * size + 1}) TO (${t.partitions * size + 1 + Math.max(size, 1_000_000)})`,
    );
  }
  if (t.partitions === 0) {
    await db.query(`
      INSERT INTO ${t.name} (id, "batchId", phone, "countryCode", "channelId", segments, price, "sendResult",
                             "receiveResult", "providerMessageId", "errorCode", "sentAt", "receivedAt")
      SELECT i, b, '+1' || (2012000000 + (i * 7919) % 7000000000)::text, 'US', 1 + b % 4, 1, 500,
             CASE WHEN i % 50 = 0 THEN 2 ELSE 1 END,
             CASE WHEN i % 50 = 0 OR b > ${BATCHES - RECENT_BATCHES} THEN 0 WHEN i % 20 = 0 THEN 2 ELSE 1 END,
             to_hex((i * 2654435761) % 1099511627776), CASE WHEN i % 50 = 0 THEN 'FAILED' END,
             now() - interval '60 days' * (1 - i::float8 / ${ROWS}),
             CASE WHEN i % 50 <> 0 AND b <= ${BATCHES - RECENT_BATCHES}
                  THEN now() - interval '60 days' * (1 - i::float8 / ${ROWS}) + interval '3 seconds' END
      FROM generate_series(1::bigint, ${ROWS}::bigint) i, LATERAL (SELECT (i - 1) * ${BATCHES} / ${ROWS} + 1 AS b) x`);
  } else {
    await db.query(`INSERT INTO ${t.name} SELECT * FROM r_plain`);
  }
  const loaded = performance.now();
  await db.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${t.name}_pkey PRIMARY KEY (id)`);
  await db.query(`CREATE INDEX ON ${t.name} ("batchId", "sendResult")`);
  await db.query(`CREATE INDEX ON ${t.name} ("providerMessageId")`);
  await db.query(`CREATE INDEX ON ${t.name} ("channelId", "sentAt")`);
  await db.query(`CREATE INDEX ON ${t.name} (phone, "batchId", id)`);
  await db.query(`VACUUM ANALYZE ${t.name}`);
  if (t.partitions > 0) await db.query(`ANALYZE ${t.name}`);
  const s = (performance.now() - t0) / 1000;
  const [{ size }] = (
    await db.query(`SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) AS size FROM pg_class c
                    WHERE c.oid = '${t.name}'::regclass OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = '${t.name}'::regclass)`)
  ).rows;
  log(
    `${t.label}: ${fmt(ROWS)} rows loaded in ${fmt((loaded - t0) / 1000, 1)} s, indexed in ${fmt((performance.now() - loaded) / 1000, 1)} s, ${size}`,
  );
  return s;
}

async function measure(db: pg.Client, t: Table, hint: boolean): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const T = t.name;
  const seed = hint ? 7 : 3;

  // ingest: 100,000 rows of one new batch, 10,000 per statement, in one transaction
  if (!hint) {
    const rates: number[] = [];
    for (let run = 0; run < INGEST_RUNS; run++) {
      const phones = Array.from({ length: 10_000 }, (_, i) => `+1${3012000000 + run * 100_000 + i}`);
      const [ms] = await timed(async () => {
        await db.query("BEGIN");
        for (let k = 0; k < INGEST_ROWS / 10_000; k++) {
          await db.query(
            `INSERT INTO ${T} ("batchId", phone, "countryCode", "channelId", segments, price, "primaryPrice", "fallbackPrice")
             SELECT $1::bigint, r.p, (ARRAY['US'])[r.k], (ARRAY[1])[r.k], 1::smallint, (ARRAY[500::bigint])[r.k],
                    (ARRAY[NULL::bigint])[r.k], (ARRAY[NULL::bigint])[r.k]
             FROM unnest(string_to_array($2, ','), string_to_array($3, ',')::int[]) AS r(p, k)`,
            [BATCHES + 1 + run, phones.join(","), phones.map(() => "1").join(",")],
          );
        }
        await db.query("COMMIT");
      });
      rates.push(INGEST_ROWS / (ms / 1000));
    }
    out.ingest = `${fmt(median(rates))} rows/s`;
  }

  // receipts: groups of 1,000 provider message ids of recent (unreceipted) rows; the id bound is for partitions
  // only (a plain table has nothing to prune, and the bound only tempts its planner into the primary key)
  const receiptHint = hint && t.partitions > 0;
  const recentFrom = firstRowOf(BATCHES - RECENT_BATCHES + 1);
  const receiptRows = sample(GROUP * GROUPS, recentFrom, ROWS, seed);
  // the lower bound a receipt may use: the first id of the oldest batch sent within the receipt window
  const receiptLow = firstRowOf(BATCHES - RECENT_BATCHES * 3 + 1);
  // (the pass before may have taken these rows' receipts: they wait for one again, outside the time)
  await db.query(`UPDATE ${T} SET "receiveResult" = 0, "receivedAt" = NULL WHERE id = ANY($1::bigint[])`, [
    receiptRows,
  ]);
  await db.query(`VACUUM ${T}`);
  let receiptMs = 0;
  let receiptCount = 0;
  for (let g = 0; g < GROUPS; g++) {
    const group = receiptRows.slice(g * GROUP, (g + 1) * GROUP);
    const ids = group.map((i) => messageIdOf(BigInt(i)));
    const [ms, r] = await timed(() =>
      db.query(
        `WITH v AS (
           SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS v(message_id, idx)
         ), found AS (
           SELECT v.idx, f.* FROM v CROSS JOIN LATERAL (
             SELECT r.id, r.tableoid AS toid, r.ctid AS tid, r."channelId", r."sentAt", r."receiveResult" FROM ${T} r
             WHERE r."providerMessageId" = v.message_id ${receiptHint ? "AND r.id >= $2::bigint" : ""} OFFSET 0
           ) f
         ), hit AS (
           SELECT DISTINCT ON (idx) idx, id, toid, tid, "sentAt" FROM found
           WHERE "channelId" IN (1, 2, 3, 4) AND "sentAt" > now() - interval '7 days' AND "receiveResult" = 0
           ORDER BY idx, id DESC
         ), u AS (
           UPDATE ${T} r SET "receiveResult" = 1, "receivedAt" = greatest(now(), hit."sentAt")
           FROM hit
           WHERE ${updateBy(t)} AND r."receiveResult" = 0
           RETURNING r.id, r."batchId"
         )
         SELECT count(*)::int AS n FROM u`,
        receiptHint ? [ids, receiptLow] : [ids],
      ),
    );
    receiptMs += ms;
    receiptCount += r.rows[0].n as number;
  }
  if (hint && !receiptHint) out.receipts = "";
  else
    out.receipts = `${fmt(receiptCount / (receiptMs / 1000))} rows/s${receiptCount < GROUP * GROUPS ? ` (${receiptCount} matched)` : ""}`;

  // send outcomes: groups of 1,000 ids of one (recent) batch, found by id, updated as send-outcomes.ts does
  {
    const batch = BATCHES - (hint ? 1 : 0);
    const from = firstRowOf(batch);
    const to = firstRowOf(batch + 1) - 1;
    const rows = sample(Math.min(GROUP * 5, to - from + 1), from, to, seed + 1);
    let ms = 0;
    let n = 0;
    for (let g = 0; g * GROUP < rows.length; g++) {
      const ids = rows.slice(g * GROUP, (g + 1) * GROUP).map(String);
      const [took, r] = await timed(() =>
        db.query(
          `WITH o AS (
             SELECT * FROM unnest($1::bigint[]) AS o(id)
           ), t AS (
             SELECT o.*, p.toid, p.tid FROM o CROSS JOIN LATERAL (
               SELECT r.tableoid AS toid, r.ctid AS tid, r."batchId", r."sendResult" FROM ${T} r WHERE r.id = o.id OFFSET 0
             ) p
             WHERE p."batchId" = $2
           ), u AS (
             UPDATE ${T} r SET "sendResult" = r."sendResult", "sentAt" = now()
             FROM t
             WHERE ${updateBy(t, "t")}
             RETURNING r.id
           )
           SELECT count(*)::int AS n FROM u`,
          [ids, batch],
        ),
      );
      ms += took;
      n += r.rows[0].n as number;
    }
    out.outcomes = `${fmt(n / (ms / 1000))} rows/s`;
  }

  // the batch screens: first page + count, per country, per send result, the unsent probe
  const batches = sample(PAGE_BATCHES, 1, BATCHES, seed + 2);
  const range = (b: number) => (hint ? `AND id BETWEEN ${firstRowOf(b)} AND ${firstRowOf(b + 1) - 1}` : "");
  const screens: Array<[string, (b: number) => string]> = [
    [
      "page",
      (b) =>
        `SELECT id, phone, "countryCode", "channelId", segments, price, "sendResult", "receiveResult", "errorCode",
                "sentAt", "receivedAt", "readAt", "fallbackFrom"
         FROM ${T} WHERE "batchId" = ${b} ${range(b)} ORDER BY id LIMIT 20`,
    ],
    ["count", (b) => `SELECT count(*) FROM ${T} WHERE "batchId" = ${b} ${range(b)}`],
    [
      "countries",
      (b) =>
        `SELECT "countryCode", count(*), sum(price) FROM ${T} WHERE "batchId" = ${b} ${range(b)} GROUP BY 1 ORDER BY 1`,
    ],
    ["sendResults", (b) => `SELECT "sendResult", count(*) FROM ${T} WHERE "batchId" = ${b} ${range(b)} GROUP BY 1`],
    [
      "unsentProbe",
      (b) => `SELECT EXISTS (SELECT 1 FROM ${T} WHERE "batchId" = ${b} AND "sendResult" = 0 ${range(b)})`,
    ],
  ];
  for (const [what, sql] of screens) {
    const times: number[] = [];
    for (const b of batches) times.push((await timed(() => db.query(sql(b))))[0]);
    out[what] = `${fmt(median(times), 2)} ms`;
  }

  // one recipient by id (prepared as Prisma's statements are), and a dispatch chunk's range
  if (!hint) {
    const ids = sample(LOOKUPS, 1, ROWS, seed + 3);
    const [ms] = await timed(async () => {
      for (const id of ids)
        await db.query({ name: `by_id_${T}`, text: `SELECT * FROM ${T} WHERE id = $1`, values: [id] });
    });
    out.byId = `${fmt(LOOKUPS / (ms / 1000))} q/s`;
    const chunks = sample(100, 1, ROWS - 2_000, seed + 4);
    const times: number[] = [];
    for (const from of chunks)
      times.push(
        (
          await timed(() =>
            db.query(`SELECT id, phone, segments, "fallbackPrice" FROM ${T} WHERE id BETWEEN $1 AND $2 ORDER BY id`, [
              from,
              from + 1_999,
            ]),
          )
        )[0],
      );
    out.chunk = `${fmt(median(times), 2)} ms`;
  }
  return out;
}

/**
 * How the update finds the rows its CTE found, as the workers do: by ctid (one heap fetch each, a TID scan), and on
 * a partitioned table also by the row's partition (a ctid repeats in every partition). The TID scan then runs in
 * every partition: cheap while a few partitions exist (the shipped 50M-id width keeps the live rows in one), 259 ms
 * per 1,000 rows at 50 partitions against 36 ms by id alone (`--by-id`: a nested loop whose every probe is pruned
 * to one partition; EXPLAIN ANALYZE, 1M rows).
 */
const BY_ID = process.argv.includes("--by-id");
function updateBy(t: Table, cte = "hit"): string {
  if (t.partitions === 0) return `r.ctid = ANY (ARRAY(SELECT tid FROM ${cte})) AND r.ctid = ${cte}.tid`;
  return BY_ID
    ? `r.id = ${cte}.id`
    : `r.ctid = ANY (ARRAY(SELECT tid FROM ${cte})) AND r.ctid = ${cte}.tid AND r.tableoid = ${cte}.toid`;
}

const ROWS_SHOWN: Array<[string, string]> = [
  ["ingest", "ingest: 100,000-row batch, 10,000 rows per INSERT ... SELECT unnest (median of 3)"],
  ["receipts", "receipts: 10 groups of 1,000 by provider message id, found and updated"],
  ["outcomes", "send outcomes: 5 groups of 1,000 ids of one batch, found and updated"],
  ["page", "batch's first page of 20 recipients (median of 50 batches)"],
  ["count", "batch's recipient count"],
  ["countries", "batch's counts and cost per country (detail page)"],
  ["sendResults", "batch's counts per send result"],
  ["unsentProbe", "batch has an unsent recipient (scheduler tick)"],
  ["byId", "one recipient by id (2,000 prepared lookups)"],
  ["chunk", "dispatch chunk: 2,000 ids by range"],
];

function printTable(results: Record<string, Record<string, string>>, fill: Record<string, number>, tables: Table[]) {
  const cols = Object.keys(results);
  const lines = [`| what | ${cols.join(" | ")} |`, `|---|${cols.map(() => "---").join("|")}|`];
  for (const [key, label] of ROWS_SHOWN)
    lines.push(`| ${label} | ${cols.map((c) => results[c]?.[key] ?? "").join(" | ")} |`);
  lines.push(
    `| load ${fmt(ROWS)} rows and build the 5 indexes | ${cols
      .map((c) => {
        const t = tables.find((x) => x.label === c);
        return t ? `${fmt(fill[t.name] ?? 0, 0)} s` : "";
      })
      .join(" | ")} |`,
  );
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");
  process.stdout.write(
    `\n${fmt(ROWS)} recipients, ${fmt(BATCHES)} batches; ${cpus().length} CPUs, ${fmt(totalmem() / 2 ** 30, 0)} GiB, ` +
      `load average at the end ${load}\n\n${lines.join("\n")}\n\n`,
  );
}

await main();
