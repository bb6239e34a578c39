import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LibraryVoice } from "@yuelu/domain";
import { forgetTools } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { espeakTool } from "../../apps/worker/src/engines/tts/espeak.ts";
import { EspeakEngine } from "../../apps/worker/src/engines/tts/index.ts";
import {
  analyseVoiceSample,
  matchVoice,
  speakAsFloats,
  speakMatchedAsFloats,
} from "../../apps/worker/src/engines/voice/index.ts";
import { likelyBases } from "../../apps/worker/src/jobs/voice.ts";
import { libraryVoices } from "../../prisma/src/seed/voices.ts";
import { festivalAvailable, synthesise } from "../helpers/speech.ts";
import { jfk, repeat, yinMedian } from "../helpers/voice.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * Issue 20's measure of a matched voice: moved toward a real speaker (the JFK clip), the library voice's
 * English still transcribes back (moonshine, offline) with a word error rate of at most 20 %, and its
 * median pitch — measured with pitchfinder's YIN, not the product's own tracker — lies within 10 % of
 * the speaker's. The base is festival's HTS voice, which the worker prefers as a base where it is installed,
 * and, on a machine without festival, the eSpeak voice it picks for this speaker (a man's — JFK speaks at
 * about 255 Hz here, but his formants are a man's: issue 43 — where a pitch-only rule picked a child's),
 * matched the product's way (its own pitch and pace, then resampled: voice/match.ts).
 */

const SENTENCES = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
  "In the afternoon we will meet our friends at the library.",
];
const RATE = 16_000;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-voice-quality-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a matched voice", () => {
  it("keeps its English intelligible (WER ≤ 20 %) and lands within 10 % of the speaker's median pitch", {
    timeout: 120_000,
  }, async () => {
    const speaker = repeat(jfk(), 2);
    const target = analyseVoiceSample(speaker, RATE).profile!;
    // festival's HTS voice is the product's English voice where it is installed (CI installs it); eSpeak alone
    // does not meet the WER goal (bench/README.md), so without festival this test fails and says why
    if (!festivalAvailable()) throw new Error("needs festival: apt-get install festival festvox-us-slt-hts");
    const voice = "festival-slt";
    const clip = await synthesise(SENTENCES.join(" "), path.join(dir, "base.wav"), voice, 0.3);
    const base = Float32Array.from((await decodeToPcm(clip)).samples, (v) => v / 32768);
    const baseProfile = analyseVoiceSample(base, RATE).profile!;
    const matched = await matchVoice(base, RATE, baseProfile, target);

    const heard = await new MoonshineEngine().transcribe(matched, { language: "en" });
    const text = heard.segments.map((s) => s.text).join(" ");
    const { wer } = wordErrorRate(SENTENCES.join(" "), text);
    const pitchError = Math.abs(yinMedian(matched) / yinMedian(speaker) - 1);
    console.log(
      `matched ${voice} → JFK: WER ${(wer * 100).toFixed(1)} %, median pitch ${yinMedian(matched).toFixed(0)} Hz ` +
        `vs ${yinMedian(speaker).toFixed(0)} Hz (${(pitchError * 100).toFixed(1)} %): ${text}`,
    );
    expect(wer).toBeLessThanOrEqual(0.2);
    expect(pitchError).toBeLessThanOrEqual(0.1);
  });

  it("on a bare machine: eSpeak's voice (WebAssembly), matched through its own pitch and pace, meets the same goals", {
    timeout: 120_000,
  }, async () => {
    const speaker = repeat(jfk(), 2);
    const target = analyseVoiceSample(speaker, RATE).profile!;
    // the base the worker picks for him without festival (likelyBases, then the nearest)
    const picked = likelyBases(
      (libraryVoices as unknown as LibraryVoice[]).filter((v) => v.language === "en" && v.engine === "espeak-ng"),
      target,
    );
    expect(picked.every((v) => v.gender === "male")).toBe(true);
    const mike = libraryVoices.find((v) => v.slug === "en-espeak-mike")!;
    expect(picked.map((v) => v.slug)).toContain(mike.slug);
    const voice = { language: "en" as const, params: mike.params as Record<string, unknown> };
    const engine = new EspeakEngine({});
    const text = SENTENCES.join(" ");
    // a bare machine: no espeak-ng program on PATH, so eSpeak's WebAssembly build speaks
    const savedPath = process.env.PATH;
    process.env.PATH = "/nonexistent";
    forgetTools();
    let matched: Float32Array;
    try {
      expect(espeakTool(undefined)?.kind).toBe("wasm");
      const baseProfile = analyseVoiceSample(await speakAsFloats(engine, voice, text, RATE), RATE).profile!;
      matched = await speakMatchedAsFloats(engine, voice, text, RATE, baseProfile, target);
    } finally {
      process.env.PATH = savedPath;
      forgetTools();
    }

    const heard = await new MoonshineEngine().transcribe(matched, { language: "en" });
    const { wer } = wordErrorRate(text, heard.segments.map((s) => s.text).join(" "));
    const pitchError = Math.abs(yinMedian(matched) / yinMedian(speaker) - 1);
    console.log(
      `matched eSpeak Mike → JFK: WER ${(wer * 100).toFixed(1)} %, pitch off ${(pitchError * 100).toFixed(1)} %`,
    );
    expect(wer).toBeLessThanOrEqual(0.2);
    expect(pitchError).toBeLessThanOrEqual(0.1);
  });
});
