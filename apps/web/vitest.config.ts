import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { webAlias } from "./vite.config.ts";

/** Component tests: happy-dom, a fake backend per test (src/testing/fake-api.ts), no network. */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: webAlias },
  test: {
    name: "web",
    root: import.meta.dirname,
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testing/setup.ts"],
    testTimeout: 15_000,
  },
});
