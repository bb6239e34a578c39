/**
 * `npm run models:fetch -- [model ...] [--dir DIR] [--list]`: downloads speech models for offline
 * preparation, with the same downloader and sources the worker uses by itself (resumable,
 * checksum-verified, atomic; sources tried in turn). No model named: the ones this install's engines
 * need (ASR_ENGINE_ZH / ASR_ENGINE_EN, SHERPA_MODEL, WHISPER_MODEL), where the worker looks for them.
 * ASR_MODEL_SOURCES orders the sources, HF_ENDPOINT puts a hub or mirror first, ASR_MODEL_URL is a
 * plain web folder used alone.
 */
import path from "node:path";
import { loadConfig } from "@yuelu/runtime";
import { modelsWanted } from "../engines/asr/factory.ts";
import { MODELS, modelById } from "./catalog.ts";
import { ModelFetchError, ModelProvisioner, type WantedModel } from "./provisioner.ts";
import { modelSources } from "./sources.ts";

const args = process.argv.slice(2);
const config = loadConfig();

if (args.includes("--help") || args.includes("-h") || args.includes("--list")) {
  console.log("usage: npm run models:fetch -- [model ...] [--dir DIR]\n\nmodels:");
  for (const m of MODELS) console.log(`  ${m.id.padEnd(22)} ${m.summary}`);
  console.log(
    "\nNo model named: what this install's engines need, where the worker looks for it.\n" +
      "Sources are tried in turn: ASR_MODEL_SOURCES=modelscope,hf-mirror,huggingface (names or hub URLs) sets\n" +
      "the order, HF_ENDPOINT=https://… puts a hub or mirror first, ASR_MODEL_URL is a web folder used alone.",
  );
  process.exit(0);
}

const dirFlag = args.indexOf("--dir");
const dir = dirFlag >= 0 ? path.resolve(args[dirFlag + 1] ?? ".") : undefined;
const names = args.filter((a, i) => !a.startsWith("--") && !(dirFlag >= 0 && i === dirFlag + 1));
const unknown = names.filter((n) => !modelById(n));
if (unknown.length) {
  console.error(`[models:fetch] unknown model(s): ${unknown.join(", ")}. Known: ${MODELS.map((m) => m.id).join(", ")}`);
  process.exit(2);
}

const modelsDir = path.join(config.dataDir, "models");
const wanted: WantedModel[] = names.length
  ? names.map((id) => {
      const spec = modelById(id)!;
      return { spec, dir: path.join(dir ?? modelsDir, spec.dir) };
    })
  : modelsWanted(config).map((w) => (dir ? { ...w, dir: path.join(dir, w.spec.dir) } : w));
if (wanted.length === 0) {
  console.log(
    "[models:fetch] the configured engines need no model files (moonshine ships in npm; openai-compatible is a server)",
  );
  process.exit(0);
}

// the provisioner's warnings name each source skipped and why; the progress line says the rest
const log = {
  info: () => {},
  warn: (obj: unknown) => {
    const { source, file, reason } = obj as { source?: string; file?: string; reason?: string };
    if (source) process.stdout.write(`\n[models:fetch] ${source} skipped for ${file}: ${reason}`);
  },
};
const provisioner = new ModelProvisioner({
  sources: modelSources(config),
  autoFetch: true,
  sha256: config.ASR_MODEL_SHA256,
  log,
});
console.log(`[models:fetch] sources, in order: ${provisioner.sourceNames.join(", ")}`);

let failed = false;
for (const want of wanted) {
  const label = `[models:fetch] ${want.spec.id}`;
  if (ModelProvisioner.isReady(want)) {
    console.log(`${label}: already in ${want.dir}`);
    continue;
  }
  try {
    let shown = -1;
    await provisioner.fetch(want, (percent) => {
      if (percent === shown) return;
      shown = percent;
      process.stdout.write(`\r${label}: ${percent}%`);
    });
    process.stdout.write("\n");
    const state = provisioner.stateOf(want);
    const from = state.state === "ready" && state.source ? ` (from ${state.source})` : "";
    console.log(`${label}: saved in ${want.dir}${from}`);
    if (want.spec.engine === "sherpa") {
      console.log(
        `${label}: to use it: ASR_ENGINE_ZH=sherpa SHERPA_MODEL=${want.spec.id} SHERPA_MODEL_DIR=${want.dir}`,
      );
    } else {
      console.log(`${label}: to use it: WHISPER_MODEL=${path.join(want.dir, want.spec.files[0]!.name)}`);
    }
  } catch (error) {
    failed = true;
    process.stdout.write("\n");
    console.error(`${label}: FAILED`);
    const failures = error instanceof ModelFetchError ? error.failures : [];
    for (const f of failures) console.error(`  ${f.source} (${f.file}): ${f.reason}: ${f.detail}`);
    if (failures.length === 0) console.error(`  ${(error as Error).message}`);
    console.error(
      "  Without internet access: download the files on a machine that has it (same command), copy the folder here,\n" +
        "  or put a reachable source first (ASR_MODEL_SOURCES=modelscope,hf-mirror or HF_ENDPOINT=<a mirror>),\n" +
        "  or set ASR_MODEL_URL to a web folder holding the files.",
    );
  }
}
process.exit(failed ? 1 : 0);
