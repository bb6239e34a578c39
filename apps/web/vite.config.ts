import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The API serves the built app; in development Vite proxies the API paths to it.
const api = process.env.VITE_API_ORIGIN ?? "http://localhost:8080";

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(["/voice_yuelu", "/account", "/mock-alipay"].map((p) => [p, api])),
  },
  build: { outDir: "dist", sourcemap: false, manifest: true },
});
