// `node bench/zh-cer.mjs --dir <folder> [--limit 200] [--engines sense-voice,paraformer-zh,whisper,openai-compatible]`
// Chinese accuracy and speed of every engine that has its weights here, side by side, on a folder of
// recordings with their transcripts: `<name>.wav` (or .mp3/.flac/…) beside `<name>.txt` (any layout
// below the folder). CER = character edit distance ÷ reference characters, after both sides are
// Simplified and lose punctuation and spaces; RTF = recognition time ÷ audio time (model load apart).
// Where the weights come from: docs/chinese-speech.md (AISHELL-1 test, or any folder of that shape).
//
// Engines and their weights (defaults in brackets):
//   sense-voice     --sense-voice-dir  [SHERPA_MODEL_DIR, else DATA_DIR/models/sherpa-sense-voice]
//   paraformer-zh   --paraformer-dir   [DATA_DIR/models/sherpa-paraformer-zh]
//   whisper         WHISPER_MODEL / WHISPER_CLI as configured (a multilingual model: base, small…)
//   openai-compatible OPENAI_ASR_URL / OPENAI_ASR_KEY / OPENAI_ASR_MODEL
import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";

register();
const { loadConfig } = await import("../packages/runtime/src/config.ts");
const asr = await import("../apps/worker/src/engines/asr/factory.ts");
const { decodeToPcm } = await import("../apps/worker/src/audio/pcm.ts");
const { detectSpeech } = await import("../apps/worker/src/audio/vad.ts");
const { toSimplified } = await import("../apps/worker/src/speech/chinese.ts");

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    limit: { type: "string", default: "200" },
    engines: { type: "string", default: "sense-voice,paraformer-zh,whisper,openai-compatible" },
    "sense-voice-dir": { type: "string" },
    "paraformer-dir": { type: "string" },
  },
});
if (!values.dir) {
  console.error("usage: node bench/zh-cer.mjs --dir <folder of audio + .txt transcripts> [--limit 200]");
  process.exit(2);
}

/** `<name>.<audio ext>` files that have a `<name>.txt` beside them, sorted, at most `limit`. */
function pairs(dir, limit) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(wav|mp3|flac|m4a|ogg|opus|webm)$/i.test(name)) {
        const txt = full.replace(/\.[^.]+$/, ".txt");
        try {
          statSync(txt);
          out.push({ audio: full, txt });
        } catch {}
      }
    }
  };
  walk(dir);
  return out.slice(0, limit);
}

/** Characters that count: Simplified, without punctuation, spaces or symbols; Latin letters lower-cased. */
function chars(text) {
  return [
    ...toSimplified(text)
      .toLowerCase()
      .replace(/[\p{P}\p{S}\s]/gu, ""),
  ];
}

function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

const base = loadConfig({ ...process.env, LOG_LEVEL: "silent", ASR_AUTO_FETCH: "false" });
const dataModels = path.join(base.dataDir, "models");
const setups = {
  "sense-voice": {
    ASR_ENGINE_ZH: "sherpa",
    SHERPA_MODEL: "sense-voice",
    SHERPA_MODEL_DIR:
      values["sense-voice-dir"] ?? process.env.SHERPA_MODEL_DIR ?? path.join(dataModels, "sherpa-sense-voice"),
  },
  "paraformer-zh": {
    ASR_ENGINE_ZH: "sherpa",
    SHERPA_MODEL: "paraformer-zh",
    SHERPA_MODEL_DIR: values["paraformer-dir"] ?? path.join(dataModels, "sherpa-paraformer-zh"),
  },
  whisper: { ASR_ENGINE_ZH: "whisper" },
  "openai-compatible": { ASR_ENGINE_ZH: "openai-compatible" },
};

const files = pairs(values.dir, Number(values.limit));
if (files.length === 0) {
  console.error(`no audio file with a .txt transcript beside it under ${values.dir}`);
  process.exit(2);
}
// decode once; every engine gets the same PCM and speech regions
const clips = [];
for (const f of files) {
  const pcm = await decodeToPcm(f.audio);
  clips.push({ ...f, pcm, regions: detectSpeech(pcm), reference: chars(readFileSync(f.txt, "utf8")) });
}
const audioSeconds = clips.reduce((s, c) => s + c.pcm.length / 16_000, 0);
console.log(
  `${clips.length} recordings, ${(audioSeconds / 60).toFixed(1)} min, ${clips.reduce((s, c) => s + c.reference.length, 0)} reference characters; ${os.availableParallelism()} cores`,
);

const rows = [];
for (const name of values.engines.split(",").map((s) => s.trim())) {
  const setup = setups[name];
  if (!setup) {
    rows.push([name, "—", "—", "—", "unknown engine"]);
    continue;
  }
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent", ASR_AUTO_FETCH: "false", ...setup });
  const engineName = asr.engineFor("zh", config);
  const missing = asr.engineMissing(engineName, "zh", config);
  if (missing) {
    rows.push([name, "—", "—", "—", `not here: ${missing.problem} (${missing.detail.slice(0, 90)})`]);
    continue;
  }
  const engine = asr.createAsrEngine(engineName, config);
  try {
    const l0 = performance.now();
    await engine.ready?.("zh");
    const load = (performance.now() - l0) / 1000;
    let errors = 0;
    let refChars = 0;
    let busy = 0;
    for (const clip of clips) {
      const t0 = performance.now();
      const result = await engine.transcribe(clip.pcm.samples, { language: "zh", regions: clip.regions });
      busy += performance.now() - t0;
      const hypothesis = chars(result.segments.map((s) => s.text).join(""));
      errors += editDistance(clip.reference, hypothesis);
      refChars += clip.reference.length;
    }
    const cer = refChars ? errors / refChars : 0;
    rows.push([
      name,
      `${(cer * 100).toFixed(2)} %`,
      (busy / 1000 / audioSeconds).toFixed(3),
      `${load.toFixed(1)} s`,
      "",
    ]);
  } catch (error) {
    rows.push([name, "—", "—", "—", `failed: ${error.message.slice(0, 100)}`]);
  }
}

const header = ["engine", "CER", "RTF", "load", "note"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
console.log(`\n${line(header)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
console.log("\nCER after Simplified conversion, without punctuation and spaces; RTF = recognition time / audio time.");
process.exit(0);
