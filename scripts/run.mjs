// `node scripts/run.mjs <source.ts> [args…]`: runs one of the server's entry points (the API alone, a
// worker, the operator CLIs) as compiled JavaScript, building it first when a source file changed
// (scripts/server-build.mjs). The entry sees its arguments as if it had been started directly.

import { pathToFileURL } from "node:url";
import { builtEntry, ensureServerBuild } from "./server-build.mjs";

const [source] = process.argv.splice(2, 1);
if (!source) {
  console.error("usage: node scripts/run.mjs <source.ts> [args…]");
  process.exit(2);
}
const entry = builtEntry(source);
ensureServerBuild();
process.argv[1] = entry;
await import(pathToFileURL(entry).href);
