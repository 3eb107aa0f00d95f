import { defineConfig } from "vitest/config";

// Real-browser tests: Debian's Chromium driven by playwright-core against the real API (on the run's
// throwaway database, see apps/api/test/global-setup.ts) and the built web client served by server.ts.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["../api/test/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // After every other project (they run together in group 0): the browser flows then have the machine to
    // themselves instead of sharing two cores with the API and workers suites.
    sequence: { groupOrder: 1 },
    // A poll gives a page 20 s to show what it should: the 1 s default failed on a loaded two-core machine.
    expect: { poll: { timeout: 20_000, interval: 100 } },
  },
});
