// The demo start's secrets (scripts/lib/local-secrets.ts): random on the first start, kept owner-only, reused.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@switchboard/domain/config";
import { describe, expect, it } from "vitest";
import { localSecrets } from "../../../scripts/lib/local-secrets";

describe("npm start's own secrets", () => {
  it("are generated once, kept with owner-only permissions and reused", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "sb-secrets-")), "data", "secrets.json");
    const first = localSecrets({}, file);
    expect(first.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.CHANNEL_SECRET_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(localSecrets({}, file)).toEqual(first);
    // every start of another checkout gets its own
    const other = localSecrets({}, path.join(mkdtempSync(path.join(tmpdir(), "sb-secrets-")), "s.json"));
    expect(other.JWT_SECRET).not.toBe(first.JWT_SECRET);
    // and they are what the API's configuration accepts
    expect(loadConfig({ DATABASE_URL: "postgresql://x/y", ...first }).JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it("take the environment's values first and tighten a file left readable by others", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "sb-secrets-")), "secrets.json");
    writeFileSync(file, JSON.stringify({ JWT_SECRET: "k".repeat(64) }), { mode: 0o644 });
    const secrets = localSecrets({ CHANNEL_SECRET_KEY: "ab".repeat(32) }, file);
    expect(secrets).toEqual({ JWT_SECRET: "k".repeat(64), CHANNEL_SECRET_KEY: "ab".repeat(32) });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // the missing key was generated and kept for next time
    expect(JSON.parse(readFileSync(file, "utf8")).CHANNEL_SECRET_KEY).toMatch(/^[0-9a-f]{64}$/);
  });
});
