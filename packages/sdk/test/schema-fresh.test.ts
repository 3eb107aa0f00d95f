// The committed src/schema.d.ts is what the API documents now: a route, parameter or answer changed in the API
// without `npm run sdk:generate` fails here (the same comparison as `npm run sdk:generate -- --check`).
import { describe, expect, it } from "vitest";
import { freshness } from "../scripts/generate";

describe("src/schema.d.ts", () => {
  it("matches the API's OpenAPI document (else run npm run sdk:generate)", async () => {
    const { committed, current } = await freshness();
    expect(current.length).toBeGreaterThan(1000);
    expect(committed === current, "src/schema.d.ts is out of date: run npm run sdk:generate").toBe(true);
  });
});
