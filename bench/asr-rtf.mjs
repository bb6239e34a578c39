// `node bench/asr-rtf.mjs [--seconds 60] [--voice festival|espeak]`: real-time factor (processing time ÷
// audio time; below 1 is faster than real time) of every ASR engine available here, on a generated
// English clip, plus its word error rate against the script. Engines without what they need are listed
// with the reason. `--random-whisper` also runs whisper-cli (greedy) on random-weight models with the
// real tiny/base tensor shapes: real encoder cost, but the garbage decoding runs for as long as chance
// makes it, so those rows are indicative only (and marked so).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { loadConfig } = await import("../packages/runtime/src/config.ts");
const asr = await import("../apps/worker/src/engines/asr/index.ts");
const { decodeToPcm } = await import("../apps/worker/src/audio/pcm.ts");
const { detectSpeech } = await import("../apps/worker/src/audio/vad.ts");
const { writeRandomWhisperModel } = await import("../tests/helpers/ggml-model.ts");
const { wordErrorRate } = await import("../tests/helpers/wer.ts");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const targetSeconds = Number(arg("seconds", "60"));
const festival = existsSync("/usr/bin/text2wave") && arg("voice", "festival") === "festival";

const SENTENCES = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
  "My sister wants to visit the mountains, but I would rather stay near the sea.",
  "In the afternoon we will meet our friends at the library.",
  "The committee approved the budget after a long discussion about travel costs.",
  "Please send the report to every member of the team before Friday.",
  "A quiet evening at home is sometimes the best way to rest.",
  "The train to the city leaves every twenty minutes from the main station.",
];

const dir = mkdtempSync(path.join(os.tmpdir(), "yuelu-bench-asr-"));
try {
  // 1. the clip: sentences until the target length, 0.5 s apart, 16 kHz mono
  const parts = [];
  const script = [];
  let seconds = 0;
  for (let i = 0; seconds < targetSeconds; i++) {
    const text = SENTENCES[i % SENTENCES.length];
    const raw = path.join(dir, `s${i}.raw.wav`);
    const wav = path.join(dir, `s${i}.wav`);
    if (festival) execFileSync("text2wave", ["-o", raw, "-eval", "(voice_cmu_us_slt_arctic_hts)"], { input: text });
    else execFileSync("espeak-ng", ["-v", "en-us", "-w", raw, text]);
    execFileSync("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav, "pad", "0", "0.5"]);
    seconds += Number(execFileSync("soxi", ["-D", wav]).toString());
    parts.push(wav);
    script.push(text);
  }
  const clip = path.join(dir, "clip.wav");
  execFileSync("sox", [...parts, clip]);
  const pcm = await decodeToPcm(clip);
  const audioSeconds = pcm.length / 16_000;
  const regions = detectSpeech(pcm);
  const reference = script.join(" ");
  console.log(
    `clip: ${audioSeconds.toFixed(1)} s of English (${festival ? "festival us-slt-hts" : "espeak-ng"}), ${regions.length} speech regions; ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"})\n`,
  );

  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  const rows = [];
  async function measure(label, engine, language, note = "") {
    try {
      const t0 = performance.now();
      await engine.ready?.(language);
      const loadSeconds = (performance.now() - t0) / 1000;
      const t1 = performance.now();
      const result = await engine.transcribe(pcm.samples, { language, regions });
      const wall = (performance.now() - t1) / 1000;
      const text = result.segments.map((s) => s.text).join(" ");
      const wer = note ? "—" : `${(wordErrorRate(reference, text).wer * 100).toFixed(1)} %`;
      rows.push([
        label,
        (wall / audioSeconds).toFixed(3),
        `${wall.toFixed(1)} s`,
        `${loadSeconds.toFixed(1)} s`,
        wer,
        note,
      ]);
    } catch (error) {
      rows.push([label, "—", "—", "—", "—", `unavailable: ${error.message}`]);
    }
  }

  // whisper.cpp's default is every core; moonshine's is one thread (see moonshine.ts)
  const threads = config.ASR_THREADS || os.availableParallelism();
  // 2. the engines as configured
  for (const name of ["moonshine", "whisper", "openai-compatible"]) {
    const missing = asr.engineMissing(name, "en", config);
    if (missing) {
      rows.push([name, "—", "—", "—", "—", `not available: ${missing.problem}`]);
      continue;
    }
    await measure(name, asr.createAsrEngine(name, config), "en");
  }
  // 3. whisper-cli compute cost with random weights in the real tiny / base shapes
  if (process.argv.includes("--random-whisper") && existsSync(config.WHISPER_CLI)) {
    for (const [size, shape] of [
      ["tiny", { state: 384, heads: 6, audioLayers: 4, textLayers: 4 }],
      ["base", { state: 512, heads: 8, audioLayers: 6, textLayers: 6 }],
    ]) {
      const model = path.join(dir, `ggml-random-${size}.bin`);
      await writeRandomWhisperModel(model, shape);
      const engine = new asr.WhisperEngine({
        cli: config.WHISPER_CLI,
        model,
        threads,
        beamSize: 1,
        bestOf: 1,
        fallback: false,
      });
      await measure(`whisper ${size}, greedy`, engine, "en", "random weights: indicative only, text garbage");
    }
  }

  const header = ["engine", "RTF", "time", "load", "WER", "note"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\nthreads: ${config.ASR_THREADS ? `${config.ASR_THREADS} (ASR_THREADS)` : `moonshine 1, whisper ${threads}`}; RTF = processing time / audio time (model load excluded, shown apart).`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
