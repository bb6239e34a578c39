// `npm start`: builds the web app once if it has not been built, then runs the API (which also
// serves the web app and, without REDIS_URL, runs the workers) in this process: launcher/main.ts.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { register } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "..");
const webIndex = path.join(root, "apps/web/dist/index.html");
if (!process.env.WEB_DIST && !existsSync(webIndex)) {
  console.log("[yuelu] building the web app (first start)…");
  execSync("npm run build --silent", { cwd: root, stdio: "inherit" });
}
register();
await import("../launcher/main.ts");
