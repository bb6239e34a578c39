import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API serves the built app; in development Vite proxies the API paths to it.
const api = process.env.VITE_API_ORIGIN ?? "http://localhost:8080";

/**
 * `@/` is apps/web/src: code that leaves its own feature imports shared code through it, which is
 * what lets Biome's noRestrictedImports tell a shared import from another feature's (biome.json).
 */
export const webAlias = [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname, "src")}/` }];

export default defineConfig({
  plugins: [react()],
  resolve: { alias: webAlias },
  server: {
    port: 5173,
    // "^/s/": the public share pages (a RegExp key, so /settings and /shop stay the SPA's)
    proxy: Object.fromEntries(["/voice_yuelu", "/account", "/mock-alipay", "^/s/"].map((p) => [p, api])),
  },
  build: {
    outDir: "dist",
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      // The contracts only declare constants and functions; saying so lets the bundle drop what the
      // app does not use (the server's 10002 reason catalogue, the engine texts) instead of keeping
      // every module @yuelu/contracts/constants re-exports.
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]contracts[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
});
