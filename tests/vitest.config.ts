import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const external = Boolean(process.env.DATABASE_URL);

/** Suites that start whole installs (several API and worker processes, their own servers). */
const NODES = [
  "tests/faults/**/*.test.ts",
  "tests/smoke/cluster.test.ts",
  "tests/smoke/rolling-restart.test.ts",
  "tests/smoke/backup.test.ts",
  "tests/worker/transcribe-resume.test.ts",
];

const apiProject = {
  globalSetup: ["tests/helpers/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks" as const,
};

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: on a 2-core machine (CI's) every file took its turn.
    // Most files wait on PostgreSQL, Redis or child processes, so two at a time there: npm test 23 → 16 min.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          ...apiProject,
          name: "api",
          include: [
            "tests/api/**/*.test.ts",
            "tests/unit/**/*.test.ts",
            "tests/smoke/**/*.test.ts",
            "tests/worker/**/*.test.ts",
          ],
          exclude: NODES,
          // With a real PostgreSQL every file gets its own database and files run in parallel;
          // the embedded fallback has one database, so files take turns.
          fileParallelism: external,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: "apps/web/vitest.config.ts", test: { sequence: { groupOrder: 0 } } },
      {
        test: {
          ...apiProject,
          name: "nodes",
          include: NODES,
          // One at a time, after the rest: each starts several processes on the machine's cores.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
