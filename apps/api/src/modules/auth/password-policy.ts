// The password policy (docs/decisions.md, "Passwords") for every password set through the API: registration,
// account and tenant-admin creation, a password change and an admin's reset. Sign-in never runs it: a password
// is judged once, when it is chosen.
import { Worker } from "node:worker_threads";
import type { Db } from "@switchboard/db";
import { AppError } from "../../lib/errors";

/**
 * The lowest zxcvbn score (0..4) accepted. 3 is zxcvbn's "safely unguessable": about 10^8 guesses or more,
 * beyond an online attack at our sign-in limits and costly offline against argon2id.
 */
const MIN_SCORE = 3;
/** Words every account here is known by: the product's name is in every attacker's list for this site. */
const PLATFORM_WORDS = ["switchboard"];

interface Estimate {
  score: number;
  /** Built on a password from the lists of popular passwords. */
  common: boolean;
}
type Reply = { id: number; score: number; common: boolean } | { id: number; error: string };

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, { resolve: (e: Estimate) => void; reject: (e: Error) => void }>();

/** The worker thread that holds the dictionaries: started at the first password set, kept for the next ones. */
function strengthWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL("./password-strength.worker.mjs", import.meta.url));
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on("message", (reply: Reply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    // Idle, the thread must not keep the process alive (scripts, tests, shutdown).
    if (pending.size === 0) w.unref();
    if ("error" in reply) p.reject(new Error(`password strength estimate failed: ${reply.error}`));
    else p.resolve({ score: reply.score, common: reply.common });
  });
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`password strength worker exited with code ${code}`)));
  w.unref();
  worker = w;
  return w;
}

function estimate(password: string, userInputs: string[]): Promise<Estimate> {
  const w = strengthWorker();
  const id = ++nextId;
  return new Promise<Estimate>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, password, userInputs });
  });
}

/** Lower-cased, NFKC: how two spellings of one word compare equal (full-width letters, composed accents). */
const fold = (s: string) => s.normalize("NFKC").toLowerCase();

export interface PasswordOwner {
  username: string;
  /** Other words the account is known by (tenant name and code, email, company, nickname). */
  related?: ReadonlyArray<string | null | undefined>;
}

/** The owner's words as zxcvbn user inputs: each whole, and each of its words of three letters or more. */
function userInputs(owner: PasswordOwner): string[] {
  const words = new Set<string>();
  for (const raw of [owner.username, ...(owner.related ?? []), ...PLATFORM_WORDS]) {
    if (!raw) continue;
    const whole = fold(raw);
    words.add(whole);
    for (const part of whole.split(/[^\p{L}\p{N}]+/u)) if ([...part].length >= 3) words.add(part);
  }
  return [...words];
}

/**
 * Refuses (400, saying why) a password that contains the username, or that zxcvbn scores below 3 (popular
 * passwords and their variants, keyboard walks, dates, repeats, the owner's own words). Letters of every
 * script are welcome; the length (8..128 characters) is the contract's.
 */
export async function requireAcceptablePassword(password: string, owner: PasswordOwner): Promise<void> {
  const normal = password.normalize("NFKC");
  if (normal.toLowerCase().includes(fold(owner.username))) throw new AppError(400, "password.contains_username");
  const { score, common } = await estimate(normal, userInputs(owner));
  if (score < MIN_SCORE) throw new AppError(400, common ? "password.too_common" : "password.too_guessable");
}

/** The name and code of the tenant a password is set in (none for a super admin). */
export async function tenantWords(db: Db, tenantId: number | null): Promise<string[]> {
  if (tenantId === null) return [];
  const t = await db.tenant.findUnique({ where: { id: tenantId }, select: { name: true, code: true } });
  return t ? [t.name, t.code] : [];
}
