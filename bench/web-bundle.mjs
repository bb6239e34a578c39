// The JavaScript a visitor downloads for the landing page "/", gzipped: the entry chunk, the
// landing route's lazy chunk and everything they import (from Vite's build manifest).
// Goal (issue 3): <= 250 KB. Usage: npm run build && node bench/web-bundle.mjs
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "../apps/web/dist");
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8"));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const landingKey = Object.keys(manifest).find((k) => k.endsWith("app/routes/landing.tsx"));
if (!entryKey || !landingKey) throw new Error("manifest lacks the entry or the landing route: run npm run build");

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entryKey);
visit(landingKey);

let raw = 0;
let gzip = 0;
const rows = [...files].map((file) => {
  const bytes = readFileSync(path.join(dist, file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += gz;
  return [file, bytes.length, gz];
});
for (const [file, r, g] of rows.sort((a, b) => b[2] - a[2])) {
  console.log(`${(g / 1024).toFixed(1).padStart(7)} KB gz  ${(r / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(
  `landing page JavaScript: ${(gzip / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw), goal <= 250 KB`,
);
process.exitCode = gzip / 1024 <= 250 ? 0 : 1;
