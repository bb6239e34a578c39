#!/usr/bin/env node
// Builds whisper.cpp's `whisper-cli` from the sources shipped inside the `nodejs-whisper` npm package
// and installs it to vendor/whisper/bin/whisper-cli (git-ignored). Runs from the root `postinstall`.
//
// Never fails the install: without cmake or a C++ compiler (or when the build breaks) it prints a
// clear warning and exits 0 — the `whisper` ASR engine then reports itself unavailable, naming this
// script. Set YUELU_REQUIRE_WHISPER=1 to make a failed build fail the install instead,
// YUELU_SKIP_WHISPER_BUILD=1 to skip it, WHISPER_CMAKE_ARGS to pass extra cmake flags
// (e.g. "-DGGML_NATIVE=OFF" for a binary that must run on other CPUs). `--force` rebuilds.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vendor = path.join(root, "vendor", "whisper");
const binDir = path.join(vendor, "bin");
const target = path.join(binDir, "whisper-cli");
const stampFile = path.join(vendor, "build-stamp.json");
const force = process.argv.includes("--force");
const strict = process.env.YUELU_REQUIRE_WHISPER === "1";

const say = (msg) => console.log(`[build-whisper] ${msg}`);
function giveUp(reason) {
  const banner = "!".repeat(78);
  console.warn(
    `\n${banner}\n[build-whisper] WARNING: whisper.cpp (whisper-cli) was NOT built.\n[build-whisper] ${reason}\n` +
      "[build-whisper] The `whisper` ASR engine (Chinese/auto transcription) stays unavailable until you\n" +
      "[build-whisper] install cmake and a C++ compiler (Debian: apt-get install cmake g++) and run\n" +
      `[build-whisper]   node scripts/build-whisper.mjs\n[build-whisper] or point WHISPER_CLI at an existing whisper-cli binary.\n${banner}\n`,
  );
  process.exit(strict ? 1 : 0);
}

if (process.env.YUELU_SKIP_WHISPER_BUILD === "1") {
  say("skipped (YUELU_SKIP_WHISPER_BUILD=1)");
  process.exit(0);
}

// Where the sources are: nodejs-whisper/cpp/whisper.cpp.
let sourceDir;
try {
  const require = createRequire(path.join(root, "package.json"));
  const pkgJson = require.resolve("nodejs-whisper/package.json", { paths: [root, path.join(root, "apps/worker")] });
  sourceDir = path.join(path.dirname(pkgJson), "cpp", "whisper.cpp");
} catch {
  sourceDir = path.join(root, "node_modules", "nodejs-whisper", "cpp", "whisper.cpp");
}
if (!existsSync(path.join(sourceDir, "CMakeLists.txt"))) {
  giveUp(`whisper.cpp sources not found at ${sourceDir} (is the npm package nodejs-whisper installed?)`);
}

// The source version (from whisper.cpp's CMakeLists) decides whether an existing binary is current.
const cmakeLists = readFileSync(path.join(sourceDir, "CMakeLists.txt"), "utf8");
const version = /project\("whisper\.cpp" VERSION ([\d.]+)\)/.exec(cmakeLists)?.[1] ?? "unknown";
const extraArgs = (process.env.WHISPER_CMAKE_ARGS ?? "").split(/\s+/).filter(Boolean);
const stamp = { version, sourceDir, extraArgs };
if (!force && existsSync(target)) {
  try {
    const old = JSON.parse(readFileSync(stampFile, "utf8"));
    if (old.version === version && JSON.stringify(old.extraArgs) === JSON.stringify(extraArgs)) {
      say(`whisper-cli ${version} already built at ${path.relative(root, target)} (--force rebuilds)`);
      process.exit(0);
    }
  } catch {
    // no stamp: rebuild
  }
}

function has(cmd, args = ["--version"]) {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return r.status === 0;
}
if (!has("cmake")) giveUp("cmake is not installed.");
const compiler = [process.env.CXX, "c++", "g++", "clang++"].filter(Boolean).find((c) => has(c));
if (!compiler) giveUp("no C++ compiler found (tried $CXX, c++, g++, clang++).");

const buildDir = path.join(vendor, "build");
const jobs = String(Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
const started = Date.now();
say(
  `building whisper-cli ${version} from ${path.relative(root, sourceDir)} with ${jobs} job(s) (about a minute or two)…`,
);
try {
  mkdirSync(buildDir, { recursive: true });
  const run = (args) => execFileSync("cmake", args, { stdio: ["ignore", "inherit", "inherit"], cwd: root });
  run([
    "-S",
    sourceDir,
    "-B",
    buildDir,
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=OFF",
    "-DWHISPER_BUILD_TESTS=OFF",
    "-DWHISPER_BUILD_SERVER=OFF",
    "-DWHISPER_BUILD_EXAMPLES=ON",
    "-DWHISPER_CURL=OFF",
    "-DWHISPER_SDL2=OFF",
    "-DGGML_CCACHE=OFF",
    "--log-level=WARNING",
    ...extraArgs,
  ]);
  run(["--build", buildDir, "--config", "Release", "--target", "whisper-cli", "-j", jobs]);
  const built = [path.join(buildDir, "bin", "whisper-cli"), path.join(buildDir, "bin", "Release", "whisper-cli")].find(
    (p) => existsSync(p),
  );
  if (!built) throw new Error("the build finished but produced no bin/whisper-cli");
  mkdirSync(binDir, { recursive: true });
  copyFileSync(built, target);
  chmodSync(target, 0o755);
  // Smoke check: the binary runs.
  execFileSync(target, ["--help"], { stdio: "ignore" });
  writeFileSync(stampFile, `${JSON.stringify({ ...stamp, builtAt: new Date().toISOString() }, null, 2)}\n`);
  rmSync(buildDir, { recursive: true, force: true });
  say(`installed ${path.relative(root, target)} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  rmSync(buildDir, { recursive: true, force: true });
  giveUp(`the build failed: ${error instanceof Error ? error.message : String(error)}`);
}
