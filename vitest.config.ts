import { defineConfig } from "vitest/config";

// One run over every workspace that has tests; each keeps its own config beside its code.
export default defineConfig({
  test: {
    projects: [
      "apps/api",
      "apps/web",
      "apps/web/vitest.e2e.config.ts",
      "packages/contracts",
      "packages/domain",
      "packages/channels",
      "packages/numbers",
      "packages/sdk",
      "workers",
    ],
  },
});
