import { defineConfig } from "vitest/config";

const external = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "api",
          include: [
            "tests/api/**/*.test.ts",
            "tests/unit/**/*.test.ts",
            "tests/smoke/**/*.test.ts",
            "tests/worker/**/*.test.ts",
            "tests/faults/**/*.test.ts",
          ],
          globalSetup: ["tests/helpers/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // With a real PostgreSQL every file gets its own database and files run in parallel;
          // the embedded fallback has one database, so files take turns.
          fileParallelism: external,
          pool: "forks",
        },
      },
      "apps/web/vitest.config.ts",
    ],
  },
});
