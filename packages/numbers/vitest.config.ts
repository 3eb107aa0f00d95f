import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { name: "numbers", include: ["test/**/*.test.ts"], environment: "node" },
});
