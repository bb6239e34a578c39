// The server's JavaScript: the API, the worker, the launcher, the packages below them and the operator
// CLIs, compiled once from TypeScript so that `npm start`, `npm run api|worker|cluster` and the CLIs
// run plain JavaScript — no TypeScript is parsed at run time (tsx stays a development tool: vitest,
// `npm run dev`). Built at `npm ci` (postinstall) and again by whoever starts the server when a source
// file changed since (a stamp of every input's size and time; checking it costs a few milliseconds).
//
// Each file is compiled on its own (esbuild, no bundling) to the same depth beside its source —
// `<package>/src/a/b.ts` → `<package>/dist/a/b.js` — so paths the code finds from `import.meta.url`
// (the repository root, migrations, package.json) still hold; `launcher/*.ts`, `scripts/*.ts` and
// `prisma/generated/**` go to `<folder>/dist/`. Imports of `.ts` files and of the workspace packages
// (`@yuelu/runtime`…) are rewritten to the compiled files; everything else is left to Node.
//
//   node scripts/server-build.mjs            build if stale
//   node scripts/server-build.mjs --force    build anyway
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");

/** Source folders (relative to the root) and where their files go. */
const UNITS = [
  { src: "apps/api/src", out: "apps/api/dist" },
  { src: "apps/worker/src", out: "apps/worker/dist" },
  { src: "packages/contracts/src", out: "packages/contracts/dist" },
  { src: "packages/domain/src", out: "packages/domain/dist" },
  { src: "packages/runtime/src", out: "packages/runtime/dist" },
  { src: "prisma/src", out: "prisma/dist" },
  { src: "prisma/generated", out: "prisma/dist/generated" },
  { src: "launcher", out: "launcher/dist", flat: true },
  { src: "scripts", out: "scripts/dist", flat: true },
];
/** The output folders a build replaces (prisma/dist/generated lives inside prisma/dist). */
const OUT_ROOTS = [...new Set(UNITS.map((u) => u.out))].filter(
  (out) => !UNITS.some((u) => u.out !== out && out.startsWith(`${u.out}/`)),
);
const STAMP = path.join(root, "launcher", "dist", "build-stamp.json");
const LOCK = path.join(root, "node_modules", ".yuelu-server-build.lock");
/** Files beside the sources that change what the build makes. */
const EXTRA_INPUTS = ["tsconfig.base.json", "scripts/server-build.mjs"];

const isSource = (name) => name.endsWith(".ts") && !name.endsWith(".d.ts") && !name.endsWith(".test.ts");

/** Every input file: [relative path, unit]; assets (non-TypeScript files) of src folders are copied. */
function inputs() {
  const files = [];
  for (const unit of UNITS) {
    const dir = path.join(root, unit.src);
    if (!existsSync(dir)) continue;
    const walk = (rel) => {
      for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!unit.flat && entry.name !== "node_modules" && entry.name !== "dist") walk(child);
        } else if (isSource(entry.name) || (!unit.flat && !entry.name.endsWith(".ts"))) {
          files.push({ rel: `${unit.src}/${child}`, unit, asset: !isSource(entry.name) });
        }
      }
    };
    walk("");
  }
  return files;
}

/** Where a source file's output goes (relative to the root), or undefined when it is not built. */
function outputOf(rel) {
  for (const unit of UNITS) {
    const prefix = `${unit.src}/`;
    if (!rel.startsWith(prefix)) continue;
    const rest = rel.slice(prefix.length);
    if (unit.flat && rest.includes("/")) continue;
    return `${unit.out}/${rest.replace(/\.ts$/, ".js")}`;
  }
  return undefined;
}

function stampOf(files) {
  const hash = createHash("sha256");
  for (const rel of [...files.map((f) => f.rel), ...EXTRA_INPUTS].sort()) {
    const s = statSync(path.join(root, rel), { throwIfNoEntry: false });
    hash.update(`${rel}\0${s ? `${s.size}:${s.mtimeMs}` : "-"}\n`);
  }
  hash.update(process.version.split(".")[0] ?? "");
  return hash.digest("hex");
}

function isFresh(stamp) {
  try {
    if (JSON.parse(readFileSync(STAMP, "utf8")).stamp !== stamp) return false;
  } catch {
    return false;
  }
  return OUT_ROOTS.every((out) => existsSync(path.join(root, out)));
}

/** The workspace packages by name: "@yuelu/runtime" → { dir, exports }. */
function workspacePackages() {
  const found = new Map();
  for (const dir of [
    "apps/api",
    "apps/worker",
    "packages/contracts",
    "packages/domain",
    "packages/runtime",
    "prisma",
  ]) {
    const pkg = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
    found.set(pkg.name, { dir, exports: pkg.exports ?? {} });
  }
  return found;
}

/** "@yuelu/runtime/foo" → "packages/runtime/src/foo.ts" through the package's `exports`. */
function resolveWorkspace(packages, specifier) {
  const match = /^(@yuelu\/[^/]+)(\/.*)?$/.exec(specifier);
  const pkg = match && packages.get(match[1]);
  if (!pkg) return undefined;
  const sub = match[2] ? `.${match[2]}` : ".";
  let target = pkg.exports[sub];
  if (target === undefined) {
    const pattern = Object.keys(pkg.exports).find((k) => k.includes("*") && sub.startsWith(k.split("*")[0] ?? ""));
    if (pattern) {
      const [head, tail = ""] = pattern.split("*");
      const middle = sub.slice((head ?? "").length, sub.length - tail.length);
      target = String(pkg.exports[pattern]).replace("*", middle);
    }
  }
  if (typeof target !== "string") return undefined;
  return path.posix.join(pkg.dir, target);
}

async function build(files) {
  const esbuild = await import("esbuild");
  const packages = workspacePackages();
  const sources = files.filter((f) => !f.asset);
  /** rewrites an import of a source file into the import of its output */
  const rewrite = {
    name: "yuelu-rewrite-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const importer = path.relative(root, args.importer).split(path.sep).join("/");
        const from = outputOf(importer);
        let target;
        if (args.path.startsWith("./") || args.path.startsWith("../")) {
          target = path.posix.join(path.posix.dirname(importer), args.path);
        } else {
          target = resolveWorkspace(packages, args.path);
          if (target === undefined) return { path: args.path, external: true };
        }
        // a compiled file's output, else the file itself where it lies (an asset, a .mjs)
        const to = (target.endsWith(".ts") && outputOf(target)) || target;
        let relative = path.posix.relative(path.posix.dirname(from), to);
        if (!relative.startsWith(".")) relative = `./${relative}`;
        return { path: relative, external: true };
      });
    },
  };
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: sources.map((f) => f.rel),
    outdir: path.join(root, ".server-build-out"),
    outbase: root,
    write: false,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: false,
    legalComments: "none",
    logLevel: "error",
    plugins: [rewrite],
  });
  const tmp = `.server-build-${process.pid}`;
  const staged = (out) => path.join(root, tmp, out);
  rmSync(path.join(root, tmp), { recursive: true, force: true });
  const outDir = path.join(root, ".server-build-out");
  for (const file of result.outputFiles) {
    const rel = path.relative(outDir, file.path).split(path.sep).join("/");
    const out = outputOf(rel.replace(/\.js$/, ".ts"));
    if (!out) continue;
    mkdirSync(path.dirname(staged(out)), { recursive: true });
    writeFileSync(staged(out), file.contents);
  }
  for (const asset of files.filter((f) => f.asset)) {
    const out = outputOf(asset.rel);
    if (!out) continue;
    mkdirSync(path.dirname(staged(out)), { recursive: true });
    writeFileSync(staged(out), await readFile(path.join(root, asset.rel)));
  }
  // Swap each output folder in whole: no file of an older build is left behind.
  for (const out of OUT_ROOTS) {
    rmSync(path.join(root, out), { recursive: true, force: true });
    if (existsSync(staged(out))) renameSync(staged(out), path.join(root, out));
  }
  rmSync(path.join(root, tmp), { recursive: true, force: true });
  return sources.length;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** One build at a time (several servers may start at once); the others wait for it and reuse it. */
async function withLock(fn) {
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      break;
    } catch {
      const holder = Number(readFileSync(LOCK, { encoding: "utf8", flag: "r" }).trim() || 0);
      if (!holder || !alive(holder)) rmSync(LOCK, { force: true });
      else await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** Builds now, in this process (the lock keeps concurrent builders apart). Returns whether it built. */
async function buildHere(force) {
  let files = inputs();
  if (!force && isFresh(stampOf(files))) return false;
  return withLock(async () => {
    files = inputs();
    const stamp = stampOf(files);
    if (!force && isFresh(stamp)) return false;
    const started = Date.now();
    const count = await build(files);
    mkdirSync(path.dirname(STAMP), { recursive: true });
    writeFileSync(STAMP, JSON.stringify({ stamp, builtAt: new Date().toISOString() }));
    console.error(`[yuelu] server built: ${count} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return true;
  });
}

/**
 * Makes sure the server's JavaScript is current: a stamp check here (milliseconds), and when a source
 * changed, a build in a child process — the server that starts next keeps none of the compiler's memory.
 */
export function ensureServerBuild() {
  if (isFresh(stampOf(inputs()))) return false;
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.status !== 0) throw new Error(`the server build failed (exit ${result.status ?? result.signal})`);
  return true;
}

/** The compiled file of a source file ("apps/api/src/main.ts" → absolute path of apps/api/dist/main.js). */
export function builtEntry(sourceRel) {
  const out = outputOf(sourceRel.split(path.sep).join("/"));
  if (!out) throw new Error(`${sourceRel} is not part of the server build`);
  return path.join(root, out);
}

export const builtEntryUrl = (sourceRel) => pathToFileURL(builtEntry(sourceRel)).href;

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  try {
    const built = await buildHere(process.argv.includes("--force"));
    if (!built) console.error("[yuelu] server build is current");
    // esbuild's service process would keep this one alive
    (await import("esbuild")).stop?.();
  } catch (error) {
    console.error(`[yuelu] the server build failed: ${error.message}`);
    process.exit(1);
  }
}
