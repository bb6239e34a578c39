import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type LibraryVoice, libraryVoices } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { configuredTtsEngines } from "../../apps/worker/src/engines/tts/factory.ts";
import { type RenderRequest, renderSpeech } from "../../apps/worker/src/speech/render-speech.ts";
import { normaliseChinese, normaliseEnglish } from "../../apps/worker/src/speech/tts-text.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { type AudioStats, audioStats } from "../helpers/tts.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * Quality you can measure (issue 12): English from the festival voice transcribed back by the English
 * ASR engine (moonshine) has WER ≤ 10 %, espeak-ng English ≤ 25 %; Chinese is non-silent with a
 * duration that fits its text; every offline voice of the library passes a non-silence and duration
 * check and sounds different from the others of its language.
 */

const ENGLISH = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
  "My sister wants to visit the mountains, but I would rather stay near the sea.",
  "In the afternoon we will meet our friends at the library.",
].join(" ");
const CHINESE = "今天天气很好，我们一起去公园散步。下午三点，大家在图书馆门口集合，然后去湖边喝茶聊天。";
/** One sentence every voice of a language says, to compare the voices with each other. */
const REFERENCE = {
  zh: "今天天气很好，我们一起去公园散步，然后在湖边喝茶聊天。",
  en: "The weather was bright and clear this morning, so we walked along the river and talked about our plans.",
};

let t: TestApp;
let dir: string;
const tts = configuredTtsEngines({
  TTS_ENGINE_ZH: "espeak-ng",
  TTS_ENGINE_EN: "festival",
  ESPEAK_NG_BIN: "espeak-ng",
  FESTIVAL_BIN: "festival",
  OPENAI_TTS_MODEL: "tts-1",
  GPTSOVITS_PROMPT_LANG: "zh",
});
const moonshine = new MoonshineEngine();

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-tts-quality-"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
async function render(engine: string, request: Partial<RenderRequest> & Pick<RenderRequest, "text" | "language">) {
  const rendered = await renderSpeech(tts(engine), {
    params: {},
    speed: 1,
    pitch: 0,
    volume: 1,
    format: "wav",
    ...request,
  });
  const file = path.join(dir, `r${++counter}.wav`);
  writeFileSync(file, rendered.data);
  return { file, rendered };
}

async function heard(file: string): Promise<string> {
  const pcm = await decodeToPcm(file);
  const result = await moonshine.transcribe(pcm.samples, { language: "en" });
  return result.segments.map((s) => s.text).join(" ");
}

/** Syllables (Han characters) of the spoken form of Chinese text; words of English. */
function spokenUnits(text: string, language: "zh" | "en"): number {
  if (language === "zh") return normaliseChinese(text).match(/\p{Script=Han}/gu)?.length ?? 0;
  return normaliseEnglish(text)
    .split(/\s+/)
    .filter((w) => /[a-z]/i.test(w)).length;
}

/** Non-silent, and as long as its text takes to say: 2–7.5 syllables (zh) or 1.2–4.5 words (en) a second. */
function expectSpoken(stats: AudioStats, text: string, language: "zh" | "en", label: string) {
  expect(stats.peak, `${label}: peak`).toBeGreaterThan(0.2);
  expect(stats.speechRms, `${label}: speech level`).toBeGreaterThan(0.02);
  const rate = spokenUnits(text, language) / stats.seconds;
  const [low, high] = language === "zh" ? [2, 7.5] : [1.2, 4.5];
  expect(rate, `${label}: ${language === "zh" ? "syllables" : "words"} a second`).toBeGreaterThan(low);
  expect(rate, `${label}: ${language === "zh" ? "syllables" : "words"} a second`).toBeLessThan(high);
}

describe("round trip: synthesised English transcribed back by moonshine", () => {
  it("festival (HTS voice): WER ≤ 10 %", { timeout: 120_000 }, async () => {
    const { file } = await render("festival", { text: ENGLISH, language: "en" });
    const text = await heard(file);
    const { wer, errors, words } = wordErrorRate(ENGLISH, text);
    console.log(`festival → moonshine: WER ${(wer * 100).toFixed(1)} % (${errors}/${words}): ${text}`);
    expect(wer).toBeLessThanOrEqual(0.1);
  });

  it("espeak-ng: WER ≤ 25 %", { timeout: 120_000 }, async () => {
    const { file } = await render("espeak-ng", { text: ENGLISH, language: "en", params: { voice: "en-us" } });
    const text = await heard(file);
    const { wer, errors, words } = wordErrorRate(ENGLISH, text);
    console.log(`espeak-ng → moonshine: WER ${(wer * 100).toFixed(1)} % (${errors}/${words}): ${text}`);
    expect(wer).toBeLessThanOrEqual(0.25);
  });

  it("numbers, dates and times are spoken as words the recogniser hears", { timeout: 120_000 }, async () => {
    const { file } = await render("festival", {
      text: "We met on March 5, 2024 at 10:30, and prices rose 3.5%.",
      language: "en",
    });
    const text = (await heard(file)).toLowerCase();
    console.log(`festival numbers → moonshine: ${text}`);
    expect(text).toMatch(/march/);
    expect(text).toMatch(/10:30|ten thirty/);
    expect(text).toMatch(/3\.5|three point five/);
  });
});

describe("Chinese", () => {
  it("espeak-ng Mandarin is non-silent and as long as its text takes to say", { timeout: 60_000 }, async () => {
    const { file, rendered } = await render("espeak-ng", { text: CHINESE, language: "zh", params: { voice: "cmn" } });
    const stats = await audioStats(file);
    expectSpoken(stats, CHINESE, "zh", "cmn");
    expect(rendered.pieces).toBe(2);
    // twice the text, about twice the time
    const twice = await audioStats((await render("espeak-ng", { text: CHINESE + CHINESE, language: "zh" })).file);
    expect(twice.seconds / stats.seconds).toBeGreaterThan(1.7);
    expect(twice.seconds / stats.seconds).toBeLessThan(2.3);
  });
});

describe("every offline voice of the library", () => {
  let voices: LibraryVoice[];
  const samples = new Map<number, AudioStats>();
  const references = new Map<number, AudioStats>();

  beforeAll(async () => {
    voices = (await libraryVoices(t.db)).filter((v) => v.engine === "espeak-ng" || v.engine === "festival");
  });

  it("says its sample: non-silent, with a duration that fits it (English ones understood by moonshine)", {
    timeout: 240_000,
  }, async () => {
    expect(voices.length).toBeGreaterThanOrEqual(12);
    for (const voice of voices) {
      const { file } = await render(voice.engine, {
        text: voice.sampleText,
        language: voice.language,
        params: voice.params,
      });
      const stats = await audioStats(file);
      samples.set(voice.promptId, stats);
      expectSpoken(stats, voice.sampleText, voice.language, voice.slug);
      const reference = await render(voice.engine, {
        text: REFERENCE[voice.language],
        language: voice.language,
        params: voice.params,
      });
      references.set(voice.promptId, await audioStats(reference.file));
      if (voice.language === "en") {
        const { wer } = wordErrorRate(REFERENCE.en, await heard(reference.file));
        expect(wer, `${voice.slug}: WER`).toBeLessThanOrEqual(0.3);
      }
    }
  });

  it("sounds different from every other voice of its language (pitch, rate or timbre)", () => {
    const rows: string[] = [];
    const voiced = (s: AudioStats) => s.voicedFrames >= 30;
    for (const [i, a] of voices.entries()) {
      const sa = references.get(a.promptId)!;
      rows.push(
        `${a.slug.padEnd(24)} F0 ${sa.medianF0.toFixed(0).padStart(4)} Hz  ${sa.seconds.toFixed(2)} s  zcr ${sa.zcr.toFixed(3)}`,
      );
      for (const b of voices.slice(i + 1)) {
        if (a.language !== b.language) continue;
        const sb = references.get(b.promptId)!;
        const semitones = voiced(sa) && voiced(sb) ? Math.abs(12 * Math.log2(sa.medianF0 / sb.medianF0)) : 12;
        const rate = Math.max(sa.seconds, sb.seconds) / Math.min(sa.seconds, sb.seconds);
        const timbre = Math.max(sa.zcr, sb.zcr) / Math.min(sa.zcr, sb.zcr);
        const distinct = semitones >= 2 || rate >= 1.12 || timbre >= 1.25;
        expect(
          distinct,
          `${a.slug} vs ${b.slug}: ${semitones.toFixed(1)} st, rate ×${rate.toFixed(2)}, zcr ×${timbre.toFixed(2)}`,
        ).toBe(true);
      }
    }
    console.log(rows.join("\n"));
  });
});
