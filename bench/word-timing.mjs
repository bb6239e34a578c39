// `node bench/word-timing.mjs [--sentences 24]`: how far each word's start (issue 45) is from where the word
// really begins, per engine and method, as median / 90th percentile / max of |measured − known| (ms).
//
// Known word times:
//  - English, synthetic: festival's US HTS voice (festvox-us-slt-hts) speaks the sentences and reports each
//    word's start (its Word relation: the durations its model chose for the audio it writes) — every word.
//  - English, real: JFK's 11 s (real human speech, shipped in an npm package) cut at its pauses into its three
//    phrases, joined again in shuffled orders with 0.5–1.4 s of room noise between them: each phrase's onset
//    (measured once on the phrase alone: the first of 3 frames 15 dB over its quiet floor) is known.
//  - Chinese, synthetic: the espeak-ng program's Mandarin voice (variant f3, its own speed and pitch) says each
//    sentence separately; the sentences are joined with silences, so each sentence's onset is known; and eSpeak
//    NG's WebAssembly build (voice cmn+f2, rate 150) reports every character's start in its own audio.
// Rows: the product's pipeline per engine (Moonshine + the aligner), the forced aligner alone given the true
// text, and the old estimate (a share of the segment's time by length) for comparison. SenseVoice and
// Paraformer need their model files (`npm run models:fetch -- sense-voice`), which this machine cannot fetch:
// with one configured (SHERPA_MODEL, SHERPA_MODEL_DIR), its row is measured too.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const { festivalWithTimes, readWavFloats, startErrors, quantile } = await import("../tests/helpers/timed-speech.ts");
const { jfk } = await import("../tests/helpers/voice.ts");
const { MoonshineEngine } = await import("../apps/worker/src/engines/asr/moonshine.ts");
const { SherpaEngine, sherpaMissing } = await import("../apps/worker/src/engines/asr/sherpa.ts");
const { alignWords } = await import("../apps/worker/src/speech/align-words.ts");
const { timeSegmentWords } = await import("../apps/worker/src/speech/word-times.ts");
const { speakWasm } = await import("../apps/worker/src/engines/tts/espeak-wasm.ts");
const { resample } = await import("../apps/worker/src/engines/voice/resample.ts");
const { pcmFrom } = await import("../apps/worker/src/audio/pcm.ts");
const { wordSpans, wordTokens } = await import("../packages/contracts/src/words.ts");
const { wordsOf: shareOfSegment } = await import("../apps/api/src/modules/openai/transcript-formats.ts");
const { loadConfig } = await import("../packages/runtime/src/config.ts");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const count = Number(arg("sentences", "24"));

const ENGLISH = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
  "My sister wants to visit the mountains, but I would rather stay near the sea.",
  "In the afternoon we will meet our friends at the library.",
  "The committee approved the budget after a long discussion about travel costs.",
  "Please send the report to every member of the team before Friday.",
  "A quiet evening at home is sometimes the best way to rest.",
  "The train to the city leaves every twenty minutes from the main station.",
  "Our new neighbours moved in last week and brought us a basket of apples.",
  "If the printer jams again, call the office manager before you open it.",
  "She finished the marathon in just under four hours despite the heat.",
  "The museum will stay open late on Thursday for the special exhibition.",
  "Remember to water the plants and feed the cat while we are away.",
  "Several students asked whether the final exam would include the last chapter.",
  "He repaired the old bicycle with parts he found in the garage.",
  "The restaurant on the corner serves the best noodles in town.",
  "Heavy rain is expected tonight, so bring an umbrella tomorrow.",
  "The engineers tested the bridge for three days before opening it.",
  "I could not find my keys until I looked under the sofa.",
  "The orchestra played a short piece by a young local composer.",
  "Every morning the baker opens his shop at six o'clock sharp.",
  "The children built a snowman in the park after school.",
  "Our flight was delayed because of fog at the airport.",
  "Please turn off the lights when you leave the meeting room.",
];
const CHINESE = [
  "今天天气很好，我们去公园散步。",
  "会议将在下午三点开始，请大家准时参加。",
  "这本书讲述了一个关于友谊的故事。",
  "我们需要在周五之前完成这个项目。",
  "他每天早上都会喝一杯咖啡。",
  "图书馆的新书已经可以借阅了。",
  "明天可能会下雨，记得带伞。",
  "孩子们在操场上玩得很开心。",
];

const row = (label, errors, note = "") => {
  const fmt = (v) => (Number.isFinite(v) ? `${Math.round(v)}` : "—");
  return [label, errors.length, fmt(quantile(errors, 0.5)), fmt(quantile(errors, 0.9)), fmt(Math.max(...errors)), note];
};
const rows = [];
const dir = mkdtempSync(path.join(os.tmpdir(), "yuelu-bench-words-"));
const t0 = performance.now();
try {
  // ───── English, festival, every word known ─────
  const english = ENGLISH.slice(0, count);
  const groups = [];
  for (let i = 0; i < english.length; i += 4) groups.push(english.slice(i, i + 4));
  const moonshine = new MoonshineEngine();
  const pipeline = [];
  const share = [];
  const forced = [];
  const forcedMfcc = [];
  let unmatched = 0;
  let known = 0;
  let audioSeconds = 0;
  let alignMs = 0;
  for (const [g, texts] of groups.entries()) {
    const { file, words, seconds } = await festivalWithTimes(texts, path.join(dir, `en${g}.wav`), { gapSeconds: 0.5 });
    const audio = await readWavFloats(file);
    audioSeconds += seconds;
    known += words.length;
    // the product's pipeline: Moonshine's words, aligned in the engine
    const heard = await moonshine.transcribe(audio, { language: "en" });
    const measured = startErrors(
      words,
      heard.segments.flatMap((s) => s.words ?? []),
    );
    pipeline.push(...measured.errors);
    unmatched += measured.unmatched;
    // the old estimate on the same segments
    const estimated = heard.segments.flatMap((s) =>
      shareOfSegment({ spkName: "", startTime: s.startMs, endTime: s.endMs, text: s.text }).map((w) => ({
        text: w.word,
        startMs: w.start * 1000,
      })),
    );
    share.push(...startErrors(words, estimated).errors);
    // the aligner alone, given the true text (one segment per sentence group)
    const tokens = wordTokens(texts.join(" "));
    const a = performance.now();
    const times = await alignWords(audio, tokens, "en", undefined, { encoder: (x) => moonshine.encode(x) });
    alignMs += performance.now() - a;
    forced.push(
      ...startErrors(
        words,
        tokens.map((text, i) => ({ text, startMs: times[i].startMs })),
      ).errors,
    );
    const plain = await alignWords(audio, tokens, "en");
    forcedMfcc.push(
      ...startErrors(
        words,
        tokens.map((text, i) => ({ text, startMs: plain[i].startMs })),
      ).errors,
    );
  }
  rows.push(row("moonshine (en): engine + aligner", pipeline, `${unmatched}/${known} words heard wrong, left out`));
  rows.push(
    row(
      "aligner alone, true text (en)",
      forced,
      `${((alignMs / 1000 / audioSeconds) * 100).toFixed(1)} % of real time`,
    ),
  );
  rows.push(row("aligner alone, MFCCs only (en)", forcedMfcc, "without an encoder (the Paraformer path)"));
  rows.push(row("old estimate: share of segment (en)", share, "before issue 45"));

  // ───── English, real speech: JFK's phrases, shuffled, onsets known ─────
  const speech = jfk();
  const cuts = [0, 2700, 7875, speech.length / 16];
  const phrases = cuts.slice(0, -1).map((from, i) => ({
    audio: speech.slice(Math.round(from * 16), Math.round(cuts[i + 1] * 16)),
    first: ["and", "ask", "ask"][i],
  }));
  for (const p of phrases) p.onsetMs = energyOnset(p.audio);
  const orders = [
    [0, 1, 2],
    [2, 0, 1],
    [1, 2, 0],
    [2, 1, 0],
  ];
  const real = [];
  let realMissed = 0;
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (const order of orders) {
    const parts = [];
    const onsets = [];
    let at = 0;
    for (const k of order) {
      // the room's own noise between phrases: JFK's first 0.3 s (before "And"), looped
      const gap = new Float32Array(Math.round((0.5 + 0.9 * random()) * 16000));
      for (let i = 0; i < gap.length; i++) gap[i] = speech[i % 4800];
      parts.push(gap);
      at += gap.length;
      onsets.push({ text: phrases[k].first, startMs: (at / 16000) * 1000 + phrases[k].onsetMs, endMs: 0 });
      parts.push(phrases[k].audio);
      at += phrases[k].audio.length;
    }
    const joined = new Float32Array(at);
    let o = 0;
    for (const p of parts) {
      joined.set(p, o);
      o += p.length;
    }
    const heard = (await moonshine.transcribe(joined, { language: "en" })).segments.flatMap((s) => s.words ?? []);
    for (const onset of onsets) {
      // the heard word saying the phrase's first word, within a second of its onset (a first word heard
      // wrong is left out, as above)
      const form = (w) => w.toLowerCase().replace(/[^a-z]/g, "");
      const near = heard
        .filter((w) => form(w.text) === onset.text && Math.abs(w.startMs - onset.startMs) < 1000)
        .sort((a, b) => Math.abs(a.startMs - onset.startMs) - Math.abs(b.startMs - onset.startMs))[0];
      if (near) real.push(Math.abs(near.startMs - onset.startMs));
      else realMissed++;
      if (process.env.DEBUG_WORDS) console.log(onset.text, Math.round(onset.startMs), near?.startMs);
    }
  }
  rows.push(
    row(
      "moonshine (en), real speech: JFK phrase onsets",
      real,
      `phrase onsets only; ${realMissed} first words heard wrong`,
    ),
  );

  // ───── Chinese ─────
  // (a) sentence onsets: the espeak-ng program's voice, sentences joined with silences
  const hasEspeak = (() => {
    try {
      execFileSync("espeak-ng", ["--version"]);
      return true;
    } catch {
      return false;
    }
  })();
  if (hasEspeak) {
    const pieces = [];
    const onsets = [];
    let at = 0.3;
    const lead = path.join(dir, "zh-lead.wav");
    execFileSync("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", lead, "trim", "0", "0.3"]);
    pieces.push(lead);
    for (const [i, text] of CHINESE.entries()) {
      const raw = path.join(dir, `zh${i}.raw.wav`);
      const wav = path.join(dir, `zh${i}.wav`);
      execFileSync("espeak-ng", ["-v", "cmn+f3", "-s", "150", "-p", "60", "-w", raw, text]);
      // the sentence alone, its leading silence cut: it begins exactly where it is put
      execFileSync("sox", [
        raw,
        "-r",
        "16000",
        "-c",
        "1",
        "-b",
        "16",
        wav,
        "silence",
        "1",
        "0.01",
        "0.5%",
        "pad",
        "0",
        String(0.4 + (i % 3) * 0.3),
      ]);
      onsets.push({ text: [...text][0], startMs: at * 1000, endMs: 0 });
      at += Number(execFileSync("soxi", ["-D", wav]).toString());
      pieces.push(wav);
    }
    const joined = path.join(dir, "zh.wav");
    execFileSync("sox", [...pieces, joined]);
    const audio = await readWavFloats(joined);
    // one segment per sentence, as the engine would give them, without word times: the worker's path
    const segments = [];
    for (const [i, text] of CHINESE.entries()) {
      const startMs = Math.max(0, onsets[i].startMs - 150);
      const endMs = i + 1 < CHINESE.length ? onsets[i + 1].startMs - 200 : (audio.length / 16000) * 1000;
      segments.push({ startMs, endMs, text });
    }
    const timed = await timeSegmentWords(segments, pcmFrom(audio), "zh");
    const firsts = timed.map((words, i) => Math.abs((words?.[0]?.startMs ?? Number.NaN) - onsets[i].startMs));
    rows.push(
      row(
        "aligner (zh, Paraformer path), sentence onsets",
        firsts.filter(Number.isFinite),
        "espeak-ng program, cmn+f3",
      ),
    );
  }
  // (b) every character: eSpeak NG (WebAssembly) reports where each one begins in its own audio
  const zhErrors = [];
  for (const text of CHINESE) {
    const events = [];
    const pcm = await speakWasm(text, { voice: "cmn+f2", rate: 150, pitch: 70 }, undefined, (e) => events.push(...e));
    const floats = Float32Array.from(pcm.samples, (v) => v / 32768);
    const audio = resample(floats, pcm.sampleRate, 16000);
    const tokens = wordTokens(text);
    // a character eSpeak begins a word of its own at (a character inside a word of two has no time of its own)
    const truth = wordSpans(text).map((span) => {
      const first = events.find((e) => e.type === "phoneme" && e.id && e.text_position === span.from + 1);
      return first ? { startMs: first.audio_position } : undefined;
    });
    const times = await alignWords(audio, tokens, "zh");
    for (const [k, known] of truth.entries()) {
      if (known && times?.[k]) zhErrors.push(Math.abs(times[k].startMs - known.startMs));
    }
  }
  rows.push(row("aligner (zh), every character", zhErrors, "eSpeak NG WASM cmn+f2 (same synthesizer family)"));

  // ───── SenseVoice / Paraformer, where their models are here ─────
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  for (const kind of ["sense-voice", "paraformer-zh"]) {
    // the configured model (SHERPA_MODEL, SHERPA_MODEL_DIR) measures its row; the other is listed as not here
    const modelDir = config.SHERPA_MODEL === kind ? config.SHERPA_MODEL_DIR : "";
    const missing = modelDir ? sherpaMissing({ kind, modelDir }) : { problem: "model-missing" };
    if (missing || !existsSync(modelDir)) {
      rows.push([kind, 0, "—", "—", "—", `not measured: ${missing?.problem ?? "model-missing"} on this machine`]);
      continue;
    }
    const engine = new SherpaEngine({ kind, modelDir });
    const { file, words } = await festivalWithTimes(english.slice(0, 8), path.join(dir, `sherpa-${kind}.wav`));
    if (kind === "sense-voice") {
      const heard = await engine.transcribe(await readWavFloats(file), { language: "en" });
      const timed = await timeSegmentWords(heard.segments, pcmFrom(await readWavFloats(file)), "en");
      rows.push(row(`${kind} (en): token times`, startErrors(words, timed.flat().filter(Boolean)).errors));
    }
  }

  const header = ["engine / method", "words", "median ms", "p90 ms", "max ms", "note"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`;
  console.log(
    `word start errors against known times; ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}); goal: median ≤ 80, p90 ≤ 200\n`,
  );
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(r));
  console.log(
    `\n${audioSeconds.toFixed(0)} s of festival speech; ${((performance.now() - t0) / 1000).toFixed(0)} s in all`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);

/** Where speech begins in a phrase cut from a recording: the first of 3 frames 15 dB over its quiet floor (ms). */
function energyOnset(audio) {
  const frames = [];
  for (let f = 0; (f + 1) * 160 <= audio.length; f++) {
    let s = 0;
    for (let i = f * 160; i < (f + 1) * 160; i++) s += audio[i] * audio[i];
    frames.push(10 * Math.log10(s / 160 + 1e-12));
  }
  const floor = [...frames].sort((a, b) => a - b)[Math.floor(frames.length * 0.1)];
  for (let f = 0; f + 2 < frames.length; f++) {
    if (frames[f] > floor + 15 && frames[f + 1] > floor + 15 && frames[f + 2] > floor + 15) return f * 10;
  }
  return 0;
}
