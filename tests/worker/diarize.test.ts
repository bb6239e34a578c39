import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm, type Pcm } from "../../apps/worker/src/audio/pcm.ts";
import { detectSpeech, energyProfile, type SpeechRegion } from "../../apps/worker/src/audio/vad.ts";
import { BackgroundVoicePrints } from "../../apps/worker/src/speech/background-voice-prints.ts";
import { diarize, voicePrints } from "../../apps/worker/src/speech/diarize.ts";
import { punctuate } from "../../apps/worker/src/speech/punctuate.ts";
import { floats, ktuberlingWords, librivox, PS, recording } from "../helpers/real-voices.ts";
import { concatenate, festivalAvailable, synthesise, type TestVoice } from "../helpers/speech.ts";

const LINES = [
  "Good morning, thank you for joining the meeting today.",
  "Thanks for having me, I am glad to be here.",
  "Let us start with the budget for the next quarter.",
  "I think we should spend more on research and less on travel.",
  "That sounds reasonable, but we need numbers first.",
  "I will send you the spreadsheet this afternoon.",
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-diarize-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A conversation: line i spoken by voices[i % voices.length], 0.7 s of silence after each. */
async function conversation(
  name: string,
  voices: TestVoice[],
  pitchCents: number[] = [],
): Promise<{ pcm: Pcm; regions: SpeechRegion[] }> {
  const parts: string[] = [];
  for (const [i, line] of LINES.entries()) {
    const file = path.join(dir, `${name}-${i}.wav`);
    const shift = pitchCents[i % Math.max(1, pitchCents.length)] ?? 0;
    parts.push(await synthesise(line, file, voices[i % voices.length]!, 0.7, { pitchCents: shift }));
  }
  const pcm = await decodeToPcm(await concatenate(parts, path.join(dir, `${name}.wav`)));
  return { pcm, regions: detectSpeech(pcm) };
}

describe("speaker diarization (MFCC + pitch voice prints, agglomerative clustering)", () => {
  it("tells a male and a female espeak-ng voice apart, estimating the count", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("mf", ["espeak-male", "espeak-female"]);
    expect(regions).toHaveLength(LINES.length);
    const result = await diarize(pcm, regions, { profile: energyProfile(pcm) });
    expect(result.count).toBe(2);
    expect(result.speakers).toEqual([0, 1, 0, 1, 0, 1]);
    expect(result.silhouette).toBeGreaterThan(0.3);
  });

  it("follows a requested speaker count", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("mf2", ["espeak-male", "espeak-female"]);
    expect((await diarize(pcm, regions, { speakerCount: 2 })).speakers).toEqual([0, 1, 0, 1, 0, 1]);
    const one = await diarize(pcm, regions, { speakerCount: 1 });
    expect(new Set(one.speakers)).toEqual(new Set([0]));
  });

  it("hears one speaker when one voice says every line", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("solo", ["espeak-male"]);
    const result = await diarize(pcm, regions);
    expect(result.count).toBe(1);
    expect(result.speakers).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("tells a voice from a pitch-shifted copy of itself (sox pitch +400 cents)", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("shift", ["espeak-male"], [0, 400]);
    const result = await diarize(pcm, regions);
    expect(result.speakers).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it.runIf(festivalAvailable())("separates festival's voice from espeak-ng's", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("fe", ["festival-slt", "espeak-male"]);
    const result = await diarize(pcm, regions);
    expect(result.speakers).toEqual([0, 1, 0, 1, 0, 1]);
  });

  // Real human voices (pocketsphinx-testdata, installed by .ci/run): the LibriVox reader (25 s over five
  // passages) and the "cards" speaker (10 s over five short answers), taking turns. Average linkage alone heard
  // them as one speaker; refined by the frames' likelihood they come apart.
  it("tells two real human voices apart, turn by turn, estimating the count", { timeout: 60_000 }, async () => {
    const libri = await Promise.all(["0870", "0880", "0890", "0920", "0930"].map(librivox));
    const cards = await Promise.all(
      ["001", "002", "003", "004", "005"].map((id) => floats(path.join(PS, "cards", `${id}.wav`))),
    );
    const { pcm, segments, profile } = recording(libri.flatMap((l, i) => [l, cards[i]!]));
    const result = await diarize(pcm, segments, { profile });
    expect(result.count).toBe(2);
    expect(result.speakers).toEqual([0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
  });

  // Two of the most alike voices of ktuberling-data (the Greek and the Slovenian speaker, 4 words a turn): their
  // refined clusters sit 0.4–0.5 nats per frame apart, under the bar of 0.5 that diarization once held from 8 s of
  // speech on (heard as one speaker); each voice alone stays one speaker under the bar of 0.35.
  it("tells two alike real voices apart, and hears each alone as one", { timeout: 60_000 }, async () => {
    const turns = async (language: string) =>
      Promise.all([0, 1, 2, 3].map((t) => ktuberlingWords(language, 32 + 4 * t, 4)));
    const [greek, slovenian] = await Promise.all([turns("el"), turns("sl")]);
    const both = recording(greek.flatMap((g, i) => [g, slovenian[i]!]));
    const result = await diarize(both.pcm, both.segments, { profile: both.profile });
    expect(result.count).toBe(2);
    // each speaker is mostly one voice (a single two-second turn may go to the other)
    const voiceOf = (turn: number) => turn % 2;
    const agree = result.speakers.filter((s, turn) => s === voiceOf(turn)).length;
    expect(Math.max(agree, 8 - agree)).toBeGreaterThanOrEqual(7);
    for (const language of ["el", "sl"]) {
      const alone = recording(
        await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((t) => ktuberlingWords(language, 32 + 2 * t, 2))),
      );
      expect((await diarize(alone.pcm, alone.segments, { profile: alone.profile })).count).toBe(1);
    }
  });

  it("hears one real voice as one speaker: the LibriVox reader alone", { timeout: 60_000 }, async () => {
    const libri = await Promise.all(["0870", "0880", "0890", "0920", "0930"].map(librivox));
    const { pcm, segments, profile } = recording(libri);
    const result = await diarize(pcm, segments, { profile });
    expect(result.count).toBe(1);
  });

  it("gives no speakers for no segments and one for a single segment", async () => {
    const pcm = { samples: new Float32Array(16_000), length: 16_000, slice: () => new Float32Array(0) };
    expect(await diarize(pcm, [])).toEqual({ speakers: [], count: 0, silhouette: 0 });
    expect((await diarize(pcm, [{ startMs: 0, endMs: 1000 }])).speakers).toEqual([0]);
  });
});

describe("voice prints on a worker thread (BackgroundVoicePrints)", () => {
  it("gives exactly the in-process prints, for spans handed over early and spans only named at the end", {
    timeout: 60_000,
  }, async () => {
    const { pcm, regions } = await conversation("bg", ["espeak-male", "espeak-female"]);
    // decodeToPcm keeps the recording in shared memory, so the thread reads it without a copy.
    expect(pcm.samples.buffer).toBeInstanceOf(SharedArrayBuffer);
    const profile = energyProfile(pcm);
    const background = new BackgroundVoicePrints(pcm, profile);
    for (const r of regions.slice(0, 3)) background.add(r);
    const fromThread = await background.collect(regions);
    const inProcess = await voicePrints(pcm, regions, profile);
    expect(fromThread.prints).toEqual(inProcess.prints);
    expect(fromThread.stats).toEqual(inProcess.stats);
    const viaThread = await diarize(pcm, regions, { profile, features: fromThread });
    expect(viaThread.speakers).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it("computes in-process when the thread is gone", { timeout: 60_000 }, async () => {
    const { pcm, regions } = await conversation("bg2", ["espeak-male", "espeak-female"]);
    const profile = energyProfile(pcm);
    const background = new BackgroundVoicePrints(pcm, profile);
    background.add(regions[0]!);
    await background.close();
    const prints = await background.collect(regions);
    expect(prints).toEqual(await voicePrints(pcm, regions, profile));
  });
});

describe("punctuation pass", () => {
  it("keeps the engine's punctuation and adds it to text that has none", () => {
    expect(punctuate("Hello, world.", "en")).toBe("Hello, world.");
    expect(punctuate("what time is it", "en")).toBe("What time is it?");
    expect(punctuate("i think so", "en")).toBe("I think so.");
    expect(punctuate("今天天气很好 我们去公园", "zh")).toBe("今天天气很好，我们去公园。");
    expect(punctuate("你吃饭了吗", "zh")).toBe("你吃饭了吗？");
    expect(punctuate("今天天气很好。", "zh")).toBe("今天天气很好。");
    expect(punctuate("   ", "en")).toBe("");
  });
});
