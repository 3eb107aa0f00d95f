import { defineConfig } from "vitest/config";

// Real-browser tests: Debian's Chromium driven by playwright-core against the real API (on the run's
// throwaway database, see apps/api/test/global-setup.ts) and the built web client served by server.ts.
export default defineConfig({
  test: {
    name: "e2e",
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["../api/test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
