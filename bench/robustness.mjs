// `node bench/robustness.mjs [--seeds 4] [--only pink,white] [--zh]`: word error rate (character error rate
// for Chinese) of the transcription pipeline on recordings degraded the way real ones are — noise at a
// measured SNR (seeded, so every run hears the same noise), a phone line, a reverberant room, quiet and fast
// talkers, low-bitrate codecs and the containers phones and browsers write — each WITHOUT and WITH the speech
// front end (apps/worker/src/audio/front-end.ts), plus what the front end decided and what it cost. Non-speech
// files (silence, hum, hiss, music) must give no text at all.
//
// Speech: whisper.cpp's JFK sample (real human English, in the nodejs-whisper package), a festival (or eSpeak)
// English passage, and with --zh an eSpeak Mandarin passage. The engine is the product's default per language.
// --texts prints what was heard; KEEP=1 keeps the degraded files (their folder is printed).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const root = path.resolve(import.meta.dirname, "..");
const { loadConfig, programPath } = await import("../packages/runtime/src/index.ts");
const asr = await import("../apps/worker/src/engines/asr/index.ts");
const { decodeToPcm, writeWav } = await import("../apps/worker/src/audio/pcm.ts");
const { energyProfile } = await import("../apps/worker/src/audio/vad.ts");
const { hear } = await import("../apps/worker/src/speech/hear.ts");
const { wordErrorRate } = await import("../tests/helpers/wer.ts");
const { whiteNoise } = await import("../tests/helpers/noise.ts");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const SEEDS = Number(arg("seeds", "4"));
const only = arg("only", "")?.split(",").filter(Boolean) ?? [];
const withZh = process.argv.includes("--zh");
const onlySources = arg("sources", "")?.split(",").filter(Boolean) ?? [];
/** --vad-on-recording: find speech in the recording itself rather than in what the front end made of it */
/** --one-hearing: recognise only the cleaned audio (the two-hearing rule off) */
const twoHearings = !process.argv.includes("--one-hearing");
/** --texts: print what was heard, with and without the front end */
const showTexts = process.argv.includes("--texts");
/** other front-end settings to try, e.g. --tune '{"gainFloorDb":-10}' (apps/worker/src/audio/front-end.ts TUNING) */
const tuning = JSON.parse(arg("tune", "{}"));
const ffmpeg = programPath("ffmpeg");
const dir = mkdtempSync(path.join(os.tmpdir(), "yuelu-bench-robust-"));
const RATE = 16_000;

// ── speech ──
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const JFK_TEXT =
  "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.";
const PASSAGE =
  "The committee met on Tuesday morning to discuss the budget for next year. Several members asked for more money for the library, while others wanted to repair the old bridge first. After a long debate, they agreed to share the funds and to meet again in two weeks.";
const ZH_PASSAGE = "今天下午三点我们在会议室讨论明年的预算。大家都同意先修理图书馆的屋顶，然后再买新的电脑。";

function sh(file, args, input) {
  return execFileSync(file, args, { input, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 28 });
}
const toWav16k = (input, output) =>
  sh(ffmpeg, ["-v", "error", "-y", "-i", input, "-ac", "1", "-ar", String(RATE), "-c:a", "pcm_s16le", output]);

const sources = [];
if (existsSync(JFK_MP3)) {
  const file = path.join(dir, "jfk.wav");
  toWav16k(JFK_MP3, file);
  sources.push({ name: "jfk (human)", file, text: JFK_TEXT, language: "en" });
} else console.log(`(no JFK sample at ${JFK_MP3}: npm ci installs it with nodejs-whisper)`);
{
  const raw = path.join(dir, "passage.raw.wav");
  const file = path.join(dir, "passage.wav");
  try {
    if (existsSync("/usr/bin/text2wave")) {
      sh("text2wave", ["-o", raw, "-eval", "(voice_cmu_us_slt_arctic_hts)"], PASSAGE);
    } else sh("espeak-ng", ["-v", "en-us", "-w", raw, PASSAGE]);
    toWav16k(raw, file);
    sources.push({ name: "passage (synthetic)", file, text: PASSAGE, language: "en" });
  } catch (error) {
    console.log(`(no synthetic English passage: ${error.message.split("\n")[0]})`);
  }
  if (withZh) {
    const zraw = path.join(dir, "zh.raw.wav");
    const zfile = path.join(dir, "zh.wav");
    try {
      sh("espeak-ng", ["-v", "cmn", "-w", zraw, ZH_PASSAGE]);
      toWav16k(zraw, zfile);
      sources.push({ name: "zh passage (synthetic)", file: zfile, text: ZH_PASSAGE, language: "zh" });
    } catch (error) {
      console.log(`(no Mandarin passage: ${error.message.split("\n")[0]})`);
    }
  }
}

// ── degradations (bench/lib/degrade.mjs) ──
const { degradations } = await import("./lib/degrade.mjs");
const CONDITIONS = degradations(dir).filter((c) => only.length === 0 || only.some((o) => c.name.includes(o)));
async function save(samples, name) {
  const file = path.join(dir, name);
  await writeWav(file, samples);
  return file;
}

const NON_SPEECH = [
  { name: "silence", make: () => new Float32Array(RATE * 10) },
  {
    name: "mains hum (50 Hz)",
    make: () =>
      Float32Array.from(
        { length: RATE * 10 },
        (_, i) => 0.2 * Math.sin((2 * Math.PI * 50 * i) / RATE) + 0.05 * Math.sin((2 * Math.PI * 150 * i) / RATE),
      ),
  },
  { name: "hiss (white, −30 dBFS)", make: () => whiteNoise(RATE * 10, 7).map((v) => v * 0.03) },
  {
    name: "music (chords)",
    make: () =>
      Float32Array.from({ length: RATE * 10 }, (_, i) => {
        const t = i / RATE;
        const chord = [
          [261.6, 329.6, 392],
          [220, 277.2, 329.6],
          [293.7, 370, 440],
          [196, 246.9, 293.7],
        ][Math.floor(t / 2.5) % 4];
        return chord.reduce((s, f) => s + 0.08 * Math.sin(2 * Math.PI * f * t) * (1 - ((t % 0.5) / 0.5) * 0.6), 0);
      }),
  },
];

// ── the pipeline as the worker runs it: decode → (front end) → VAD → engine ──
const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
const engines = new Map();
async function engineFor(language) {
  if (!engines.has(language)) {
    const name = asr.engineFor(language, config);
    const missing = asr.engineMissing(name, language, config);
    if (missing) {
      engines.set(language, { missing: `${name}: ${missing.problem}` });
    } else {
      const engine = asr.createAsrEngine(name, config);
      await engine.ready?.(language);
      engines.set(language, { engine, name });
    }
  }
  return engines.get(language);
}

async function recognise(file, language, enhance) {
  const pcm = await decodeToPcm(file);
  const { engine } = await engineFor(language);
  const t0 = performance.now();
  const profile = energyProfile(pcm);
  // the product's own path (speech/hear.ts): front end, speech found in what is heard, two hearings when cleaned
  const hearing = await hear(engine, pcm, profile, { language }, { enhance, tuning, twoHearings });
  const totalMs = performance.now() - t0;
  return {
    text: hearing.result.segments.map((s) => s.text).join(" "),
    report: hearing.report,
    twoHearings: hearing.twoHearings,
    totalMs,
  };
}

function errorRate(reference, text, language) {
  if (language !== "zh") return wordErrorRate(reference, text).wer;
  const chars = (s) => [...s.replace(/[\s\p{P}]/gu, "")];
  const ref = chars(reference);
  const hyp = chars(text);
  const d = Array.from({ length: ref.length + 1 }, (_, i) => [i, ...Array(hyp.length).fill(0)]);
  for (let j = 1; j <= hyp.length; j++) d[0][j] = j;
  for (let i = 1; i <= ref.length; i++)
    for (let j = 1; j <= hyp.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
  return d[ref.length][hyp.length] / Math.max(1, ref.length);
}

const pct = (v) => `${(v * 100).toFixed(1)} %`;
/** one figure, or the mean of several draws with their range */
const range = (vs) => {
  const lo = Math.min(...vs);
  const hi = Math.max(...vs);
  const mean = vs.reduce((a, b) => a + b, 0) / vs.length;
  return lo === hi ? pct(lo) : `${pct(mean)} (${pct(lo)}–${pct(hi)})`;
};

try {
  console.log(
    `robustness: ${sources.map((s) => s.name).join(", ")}; ${SEEDS} noise draws per noisy condition; ffmpeg ${ffmpeg}; ${os.cpus().length} cores; tuning ${JSON.stringify(tuning)}\n`,
  );
  const rows = [];
  for (const [i, source] of sources.entries()) {
    source.tag = `s${i}`;
    if (onlySources.length && !onlySources.some((o) => source.name.includes(o))) continue;
    const found = await engineFor(source.language);
    if (found.missing) {
      console.log(`${source.name}: no engine (${found.missing})`);
      continue;
    }
    for (const condition of CONDITIONS) {
      const seeds = condition.seeded ? Array.from({ length: SEEDS }, (_, k) => 1000 + k) : [0];
      const without = [];
      const withFront = [];
      const decisions = new Set();
      let withoutMs = 0;
      let withMs = 0;
      for (const seed of seeds) {
        const file = await condition.make(source, seed);
        const a = await recognise(file, source.language, false);
        const b = await recognise(file, source.language, true);
        without.push(errorRate(source.text, a.text, source.language));
        withFront.push(errorRate(source.text, b.text, source.language));
        const r = b.report;
        decisions.add(
          `${r.denoised ? `denoised (${r.noise})` : r.dereverberated ? "dereverberated" : r.narrowBand ? "upper band lifted" : "untouched"}${b.twoHearings ? ", heard twice" : ""}${r.narrowBand ? ", narrow-band" : ""}${r.gainDb ? `, ${r.gainDb > 0 ? "+" : ""}${r.gainDb} dB` : ""} · SNR≈${r.facts.snrDb} dB, spread ${r.facts.noiseSpreadDb} dB, RT60≈${r.facts.rt60Ms} ms`,
        );
        if (showTexts)
          console.log(
            `    [${condition.name} ${seed}] without: ${a.text}\n    [${condition.name} ${seed}] with:    ${b.text}`,
          );
        withoutMs += a.totalMs;
        withMs += b.totalMs;
      }
      rows.push([
        source.name,
        condition.name,
        range(without),
        range(withFront),
        [...decisions].slice(0, 2).join(" / "),
        `${(withMs / Math.max(1, withoutMs)).toFixed(2)}×`,
      ]);
      console.log(rows.at(-1).join("  ·  "));
    }
  }
  console.log("\nnon-speech (must give no text):");
  for (const item of NON_SPEECH) {
    const file = await save(item.make(), `${item.name.replace(/\W+/g, "-")}.wav`);
    for (const language of ["en", ...(withZh ? ["zh"] : [])]) {
      const found = await engineFor(language);
      if (found.missing) continue;
      const a = await recognise(file, language, false);
      const b = await recognise(file, language, true);
      console.log(`  ${item.name} [${language}]: without ${JSON.stringify(a.text)} · with ${JSON.stringify(b.text)}`);
    }
  }
  console.log("\n| speech | condition | without front end | with front end | what it did | time with ÷ without |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} finally {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log("kept", dir);
  for (const { engine } of engines.values()) await engine?.close?.();
}
