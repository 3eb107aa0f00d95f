import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "workers",
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
