// How the users.passwordHash column is written: argon2id (OWASP parameters: 19 MiB, 2 passes).
// Lives beside the schema so the API and the seed write the same format.
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * NFKC, as NIST SP 800-63B asks: one passphrase typed on two keyboards (a composed or decomposed "é", full-width
 * or ASCII letters from a CJK input method) is one password.
 */
function normalizePassword(password: string): string {
  return password.normalize("NFKC");
}

export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password), OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const normal = normalizePassword(password);
  if (await verify(passwordHash, normal)) return true;
  // Hashes written before normalization hold the characters as typed.
  return normal !== password && verify(passwordHash, password);
}
