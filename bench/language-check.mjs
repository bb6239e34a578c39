// `node bench/language-check.mjs [--seeds 2] [--only "white,fast"] [--texts]`: the language check of issue 41
// (apps/worker/src/speech/language-check.ts) on speech that is English and speech that is not, each clean and
// degraded as real recordings are (bench/lib/degrade.mjs: the robustness bench's conditions). Through the
// product's path: decode → front end → VAD → the English engine → the verdict.
//
// It must catch Mandarin and Japanese given to the English engine ("no": refused and refunded), and must not
// flag English — real human speech (JFK), synthetic (festival's HTS voice, eSpeak NG voices), accented (eSpeak's
// regional voices and its Hindi voice reading English) and fast. "unsure" passes (a transcript is made).
// There is no real Mandarin recording installable here: Mandarin and Japanese are eSpeak NG's (`-v cmn`, `-v ja`).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "tsx/esm/api";

register();
const root = path.resolve(import.meta.dirname, "..");
const { loadConfig, programPath } = await import("../packages/runtime/src/index.ts");
const asr = await import("../apps/worker/src/engines/asr/index.ts");
const { decodeToPcm } = await import("../apps/worker/src/audio/pcm.ts");
const { energyProfile } = await import("../apps/worker/src/audio/vad.ts");
const { hear } = await import("../apps/worker/src/speech/hear.ts");
const { englishEvidence, judgeEnglish } = await import("../apps/worker/src/speech/language-check.ts");
const { degradations } = await import("./lib/degrade.mjs");

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const SEEDS = Number(arg("seeds", "2"));
const only = arg("only", "")?.split(",").filter(Boolean) ?? [];
const showTexts = process.argv.includes("--texts");
const ffmpeg = programPath("ffmpeg");
const dir = mkdtempSync(path.join(os.tmpdir(), "yuelu-bench-language-"));

const sh = (file, args, input) => execFileSync(file, args, { input, stdio: ["pipe", "pipe", "pipe"] });
const toWav16k = (input, output) =>
  sh(ffmpeg, ["-v", "error", "-y", "-i", input, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", output]);

const PASSAGE =
  "The committee met on Tuesday morning to discuss the budget for next year. Several members asked for more money for the library, while others wanted to repair the old bridge first. After a long debate, they agreed to share the funds and to meet again in two weeks.";
const ZH = [
  "今天下午三点我们在会议室讨论明年的预算。大家都同意先修理图书馆的屋顶，然后再买新的电脑。",
  "这个季度的销售额比去年同期增长了百分之十五，主要是因为新产品在市场上很受欢迎。",
  "请大家注意，明天的培训改到上午九点开始，地点在三楼的大会议室，请不要迟到。",
];
const JA = [
  "きょうは ごご さんじに かいぎしつで らいねんの よさんに ついて はなしあいました。 みんな としょかんの やねを さきに なおすことに さんせい しました。",
  "あしたの けんしゅうは ごぜん くじから はじまります。 ばしょは さんがいの おおきな かいぎしつです。 おくれないで ください。",
];

/** A source: speech in one language, as a 16 kHz mono WAV. */
const sources = [];
function add(name, language, make) {
  const file = path.join(dir, `s${sources.length}.wav`);
  try {
    const raw = `${file}.raw.wav`;
    make(raw);
    toWav16k(raw, file);
    sources.push({ name, language, file, tag: `s${sources.length}` });
  } catch (error) {
    console.log(`(no ${name}: ${String(error.message).split("\n")[0]})`);
  }
}
const espeak =
  (voice, text, speed = 160) =>
  (out) =>
    sh("espeak-ng", ["-v", voice, "-s", String(speed), "-w", out, text]);
const JFK = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
if (existsSync(JFK)) add("English, real (JFK)", "en", (out) => toWav16k(JFK, out));
if (existsSync("/usr/bin/text2wave")) {
  add("English, festival HTS", "en", (out) =>
    sh("text2wave", ["-o", out, "-eval", "(voice_cmu_us_slt_arctic_hts)"], PASSAGE),
  );
}
add("English, eSpeak en-us", "en", espeak("en-us", PASSAGE));
add("English, eSpeak en-gb woman", "en", espeak("en+f3", PASSAGE));
// accents: eSpeak's regional English voices, and its Hindi voice reading English (Indian English); its
// German, French or Spanish voices read English letters by their own rules — not accented English but
// mispronounced words no listener would understand either — so they are not among the sources.
for (const [voice, accent] of [
  ["en-us-nyc", "New York"],
  ["en-gb-scotland", "Scottish"],
  ["en-029", "Caribbean"],
  ["en-gb-x-gbcwmd", "West Midlands"],
  ["hi", "Indian"],
]) {
  add(`English, ${accent} accent (eSpeak ${voice})`, "en", espeak(voice, PASSAGE));
}
add("English, eSpeak fast (260 wpm)", "en", espeak("en-us", PASSAGE, 260));
for (const [i, text] of ZH.entries()) add(`Mandarin ${i + 1} (eSpeak cmn)`, "zh", espeak("cmn", text));
add("Mandarin, fast (eSpeak cmn 220 wpm)", "zh", espeak("cmn", ZH.join(""), 220));
for (const [i, text] of JA.entries()) add(`Japanese ${i + 1} (eSpeak ja)`, "ja", espeak("ja", text));

const CONDITIONS = [
  { name: "clean", make: (s) => s.file },
  ...degradations(dir).filter((c) => c.name !== "clean wav"),
].filter((c) => only.length === 0 || only.some((o) => c.name.includes(o)));

const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
const engine = asr.createAsrEngine(asr.engineFor("en", config), config);
await engine.ready?.("en");

async function verdictOf(file) {
  const pcm = await decodeToPcm(file);
  const hearing = await hear(engine, pcm, energyProfile(pcm), { language: "en" });
  const evidence = englishEvidence(hearing.result.segments);
  const text = hearing.result.segments.map((s) => s.text).join(" ");
  return { verdict: evidence ? judgeEnglish(evidence) : { english: "unsure", evidence }, text };
}

try {
  console.log(
    `language check: ${sources.length} sources × ${CONDITIONS.length} conditions (${SEEDS} draws of each noise); engine ${engine.name}\n`,
  );
  /** per condition and language: how many were judged yes / unsure / no */
  const table = new Map();
  for (const condition of CONDITIONS) {
    for (const source of sources) {
      const seeds = condition.seeded ? Array.from({ length: SEEDS }, (_, k) => 2000 + k) : [0];
      for (const seed of seeds) {
        const { verdict, text } = await verdictOf(await condition.make(source, seed));
        const key = `${condition.name}|${source.language}`;
        const row = table.get(key) ?? { yes: 0, unsure: 0, no: 0, worst: [] };
        row[verdict.english]++;
        table.set(key, row);
        const e = verdict.evidence;
        const figures = e
          ? `conf ${e.confidence.toFixed(3)}, numbers ${(e.numeric * 100).toFixed(0)} %, repeats ${(e.repeats * 100).toFixed(0)} %, ${e.words} words in ${(e.speechMs / 1000).toFixed(1)} s`
          : "no evidence";
        const wrong = (source.language === "en") === (verdict.english === "no");
        if (showTexts || wrong) {
          console.log(
            `  ${wrong ? "WRONG " : ""}[${condition.name}] ${source.name}: ${verdict.english}${verdict.heard ? ` (${verdict.heard})` : ""} · ${figures} · ${JSON.stringify(text.slice(0, 400))}`,
          );
        }
      }
    }
  }
  console.log(
    "\n| condition | English: falsely flagged | English: passed as English | Mandarin: caught | Japanese: caught |",
  );
  console.log("|---|---|---|---|---|");
  const cell = (row, what) => (row ? `${row[what]} / ${row.yes + row.unsure + row.no}` : "–");
  const totals = {
    en: { yes: 0, unsure: 0, no: 0 },
    zh: { yes: 0, unsure: 0, no: 0 },
    ja: { yes: 0, unsure: 0, no: 0 },
  };
  for (const condition of CONDITIONS) {
    const of = (language) => table.get(`${condition.name}|${language}`);
    for (const language of ["en", "zh", "ja"]) {
      const row = of(language);
      if (row) for (const k of ["yes", "unsure", "no"]) totals[language][k] += row[k];
    }
    console.log(
      `| ${condition.name} | ${cell(of("en"), "no")} | ${cell(of("en"), "yes")} | ${cell(of("zh"), "no")} | ${cell(of("ja"), "no")} |`,
    );
  }
  console.log(
    `| **all** | ${cell(totals.en, "no")} | ${cell(totals.en, "yes")} | ${cell(totals.zh, "no")} | ${cell(totals.ja, "no")} |`,
  );
} finally {
  if (process.env.KEEP) console.log(`(files kept in ${dir})`);
  else rmSync(dir, { recursive: true, force: true });
}
