// How the users.passwordHash column is written: argon2id (OWASP parameters: 19 MiB, 2 passes).
// Lives beside the schema so the API and the seed write the same format.
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}
