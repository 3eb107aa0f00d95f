import { defineConfig } from "vitest/config";

export default defineConfig({
  // The schema check builds the API's OpenAPI document in a child process: seconds, not milliseconds.
  test: { name: "sdk", include: ["test/**/*.test.ts"], environment: "node", testTimeout: 60_000 },
});
