import { defineConfig } from "vitest/config";

/** Browser tests: the real server (scripts/start.mjs) driven by real Chromium through playwright-core. */
export default defineConfig({
  test: {
    name: "e2e",
    root: `${import.meta.dirname}/../..`,
    include: ["tests/e2e/**/*.e2e.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: "forks",
  },
});
