import { createRequire } from "node:module";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { webAlias } from "./vite.config.ts";

// tus-js-client's browser build (XMLHttpRequest, Blob reader, localStorage), as Vite picks it for the
// app through the package's `browser` field, which tests under happy-dom do not follow by themselves.
const tusMain = createRequire(import.meta.url).resolve("tus-js-client");
const tusBrowser = path.join(path.dirname(path.dirname(path.dirname(tusMain))), "lib.esm/browser/index.js");

/** Component tests: happy-dom, a fake backend per test (src/testing/fake-api.ts), no network. */
export default defineConfig({
  plugins: [react()],
  resolve: { alias: [...webAlias, { find: /^tus-js-client$/, replacement: tusBrowser }] },
  test: {
    name: "web",
    root: import.meta.dirname,
    environment: "happy-dom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testing/setup.ts"],
    testTimeout: 15_000,
    // Console output goes straight to the terminal: intercepted, a log a request makes as it fails after its
    // test file ended ("网络异常") arrives while the worker's RPC closes, and vitest fails the whole run on it.
    disableConsoleIntercept: true,
  },
});
