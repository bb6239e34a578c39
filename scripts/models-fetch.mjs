#!/usr/bin/env node
// `npm run models:fetch -- [model ...] [--dir DIR]`: downloads whisper.cpp ggml models from
// huggingface.co (or the mirror in HF_ENDPOINT, e.g. https://hf-mirror.com) into DATA_DIR/models,
// checking the published SHA-1 where whisper.cpp lists one. Default model: base (what WHISPER_MODEL
// points at by default). Fails with a clear message when the internet is not reachable.
import { createHash } from "node:crypto";
import { closeSync, createReadStream, createWriteStream, existsSync, openSync, readSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

const MODELS = {
  tiny: "bd577a113a864445d4c299885e0cb97d4ba92b5f",
  "tiny.en": "c78c86eb1a8faa21b369bcd33207cc90d64ae9df",
  "tiny-q5_1": null,
  "tiny-q8_0": null,
  base: "465707469ff3a37a2b9b8d8f89f2f99de7299dac",
  "base.en": "137c40403d78fd54d454da0f9bd998f78703390c",
  "base-q5_1": null,
  "base-q8_0": null,
  small: "55356645c2b361a969dfd0ef2c5a50d530afd8d5",
  "small.en": "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022",
  "small-q5_1": null,
  "small-q8_0": null,
  medium: "fd9727b6e1217c2f614f9b698455c4ffd82463b4",
  "medium.en": "8c30f0e44ce9560643ebd10bbe50cd20eafd3723",
  "medium-q5_0": null,
  "medium-q8_0": null,
  "large-v2": "0f4c8e34f21cf1a914c59d8b3ce882345ad349d6",
  "large-v3": "ad82bf6a9043ceed055076d0fd39f5f186ff8062",
  "large-v3-q5_0": "e6e2ed78495d403bef4b7cff42ef4aaadcfea8de",
  "large-v3-turbo": "4af2b29d7ec73d781377bfd1758ca957a807e941",
  "large-v3-turbo-q5_0": "e050f7970618a659205450ad97eb95a18d69c9ee",
  "large-v3-turbo-q8_0": null,
};

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h") || args.includes("--list")) {
  console.log(
    "usage: npm run models:fetch -- [model ...] [--dir DIR]\n\n" +
      `models: ${Object.keys(MODELS).join(", ")}\n` +
      "default: base, into DATA_DIR/models (./data/models), the default WHISPER_MODEL location.\n" +
      "HF_ENDPOINT=https://hf-mirror.com uses a mirror. Multilingual models (no .en) are needed for Chinese.",
  );
  process.exit(0);
}
const dirFlag = args.indexOf("--dir");
const dir = path.resolve(
  dirFlag >= 0
    ? args[dirFlag + 1]
    : path.join(process.env.DATA_DIR || path.resolve(import.meta.dirname, "..", "data"), "models"),
);
const names = args.filter((a, i) => !a.startsWith("--") && !(dirFlag >= 0 && i === dirFlag + 1));
if (names.length === 0) names.push("base");
const unknown = names.filter((n) => !(n in MODELS));
if (unknown.length) {
  console.error(`[models:fetch] unknown model(s): ${unknown.join(", ")}. Known: ${Object.keys(MODELS).join(", ")}`);
  process.exit(2);
}
const endpoint = (process.env.HF_ENDPOINT || "https://huggingface.co").replace(/\/+$/, "");

async function sha1Of(file) {
  const hash = createHash("sha1");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

function isGgml(file) {
  const head = Buffer.alloc(4);
  const fd = openSync(file, "r");
  const n = readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  return n === 4 && head.readUInt32LE(0) === 0x67676d6c;
}

async function fetchModel(name) {
  const file = path.join(dir, `ggml-${name}.bin`);
  const expected = MODELS[name];
  if (existsSync(file)) {
    if (!expected || (await sha1Of(file)) === expected) {
      console.log(`[models:fetch] ${name}: already at ${file}`);
      return file;
    }
    console.log(`[models:fetch] ${name}: ${file} is incomplete or corrupt, downloading again`);
  }
  const url = `${endpoint}/ggerganov/whisper.cpp/resolve/main/ggml-${name}.bin`;
  console.log(`[models:fetch] ${name}: ${url}`);
  let res;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(20_000), redirect: "follow" });
  } catch (error) {
    const why = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(error);
    throw new Error(
      `could not reach ${new URL(url).host} (${why}): this machine seems to have no internet access.\n` +
        `  Download ${url}\n  on a machine that has, copy it to ${file} (or anywhere, and set WHISPER_MODEL to it),\n` +
        "  or set HF_ENDPOINT to a reachable mirror.",
    );
  }
  if (!res.ok || !res.body) throw new Error(`${url} answered HTTP ${res.status}`);
  const total = Number(res.headers.get("content-length")) || 0;
  await mkdir(dir, { recursive: true });
  const part = `${file}.part`;
  const hash = createHash("sha1");
  let received = 0;
  let shown = -1;
  const body = Readable.fromWeb(res.body);
  body.on("data", (chunk) => {
    hash.update(chunk);
    received += chunk.length;
    const pct = total ? Math.floor((received / total) * 20) * 5 : -1;
    if (pct !== shown && pct >= 0) {
      shown = pct;
      process.stdout.write(`\r[models:fetch] ${name}: ${pct}% of ${(total / 1048576).toFixed(0)} MiB`);
    }
  });
  try {
    await pipeline(body, createWriteStream(part));
  } catch (error) {
    await rm(part, { force: true });
    throw new Error(`the download of ${name} broke off: ${error.message}`);
  }
  process.stdout.write("\n");
  const sha = hash.digest("hex");
  if (expected && sha !== expected) {
    await rm(part, { force: true });
    throw new Error(`${name}: SHA-1 ${sha} does not match the published ${expected}; nothing was kept`);
  }
  if (!isGgml(part)) {
    await rm(part, { force: true });
    throw new Error(`${name}: the download is not a ggml model file; nothing was kept`);
  }
  await rename(part, file);
  console.log(`[models:fetch] ${name}: saved ${file} (${((await stat(file)).size / 1048576).toFixed(0)} MiB)`);
  return file;
}

let failed = false;
for (const name of names) {
  try {
    const file = await fetchModel(name);
    if (name !== "base") console.log(`[models:fetch] to use it: WHISPER_MODEL=${file}`);
  } catch (error) {
    failed = true;
    console.error(`[models:fetch] ${name}: FAILED: ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);
