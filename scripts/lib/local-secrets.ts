// The demo start's own secrets: generated at random on the first `npm start`, kept in .data/secrets.json
// (owner-only: the folder 0700, the file 0600) and reused on every later start, so sessions and sealed channel
// credentials survive a restart. Values given in the environment win. Production never comes here: it must be
// given its secrets (packages/domain/src/config.ts refuses to start without them).
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DATA_DIR } from "./services";

export interface LocalSecrets {
  JWT_SECRET: string;
  CHANNEL_SECRET_KEY: string;
}

const FILE = path.join(DATA_DIR, "secrets.json");

function generate(): LocalSecrets {
  return { JWT_SECRET: randomBytes(32).toString("hex"), CHANNEL_SECRET_KEY: randomBytes(32).toString("hex") };
}

function read(file: string): Partial<LocalSecrets> {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<LocalSecrets>;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {}; // unreadable: the missing values are generated again (sessions signed before end; see README)
  }
}

/** The secrets for this start: the environment's, else the kept ones, else new ones (then kept). */
export function localSecrets(env: NodeJS.ProcessEnv, file = FILE): LocalSecrets {
  const kept = existsSync(file) ? read(file) : {};
  const fresh = generate();
  const secrets: LocalSecrets = {
    JWT_SECRET: kept.JWT_SECRET ?? fresh.JWT_SECRET,
    CHANNEL_SECRET_KEY: kept.CHANNEL_SECRET_KEY ?? fresh.CHANNEL_SECRET_KEY,
  };
  if (kept.JWT_SECRET !== secrets.JWT_SECRET || kept.CHANNEL_SECRET_KEY !== secrets.CHANNEL_SECRET_KEY) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  // Also when the file pre-existed with looser permissions (copied, restored from a backup).
  chmodSync(path.dirname(file), 0o700);
  chmodSync(file, 0o600);
  return {
    JWT_SECRET: env.JWT_SECRET || secrets.JWT_SECRET,
    CHANNEL_SECRET_KEY: env.CHANNEL_SECRET_KEY || secrets.CHANNEL_SECRET_KEY,
  };
}
