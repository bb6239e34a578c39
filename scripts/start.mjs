// `npm start`: builds the web app once if it has not been built, compiles the server's TypeScript when
// it changed (scripts/server-build.mjs: a stamp check, milliseconds when nothing changed), then runs the
// launcher's JavaScript in this process — the API (which also serves the web app) and, without
// REDIS_URL, the workers in a child process (launcher/main.ts).
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { builtEntryUrl, ensureServerBuild } from "./server-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const webIndex = path.join(root, "apps/web/dist/index.html");
if (!process.env.WEB_DIST && !existsSync(webIndex)) {
  console.log("[yuelu] building the web app (first start)…");
  execSync("npm run build --silent", { cwd: root, stdio: "inherit" });
}
ensureServerBuild();
await import(builtEntryUrl("launcher/main.ts"));
