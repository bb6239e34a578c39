import type { LibraryVoice } from "@yuelu/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine, FestivalEngine } from "../../apps/worker/src/engines/tts/index.ts";
import {
  APPARENT_RULES,
  analyseVoiceSample,
  guardedMedianPitch,
  judgeSpeaker,
  resample,
  speakAsFloats,
  stretchAndShift,
  type VoiceProfile,
} from "../../apps/worker/src/engines/voice/index.ts";
import { likelyBases } from "../../apps/worker/src/jobs/voice.ts";
import { libraryVoices } from "../../prisma/src/seed/voices.ts";
import { festivalAvailable } from "../helpers/speech.ts";
import { concat, jfk16k } from "../helpers/voice-dsp.ts";

/**
 * Issue 43: a personal voice's base is a voice of the speaker's apparent sex and age. On real human
 * speech — whisper.cpp's JFK clip, a man shouting at a median 255 Hz, a woman's register, which a
 * pitch-only rule based on a girl's voice — the formant spacing says "man"; pitching him up keeps him
 * one; playing him faster (formants up with the pitch, a shorter vocal tract) makes a woman, then a child.
 * festival's HTS voice, built from a woman's recordings, is a woman; eSpeak's voices are what their
 * library labels say. And no man's sample is given a woman's or a child's base, nor the reverse.
 */

const SR = 16_000;
let jfk: Float32Array;
let jfkOnce: Float32Array;
const library = libraryVoices as unknown as LibraryVoice[];
const offline = (language: string) =>
  library.filter((v) => v.language === language && (v.engine === "espeak-ng" || v.engine === "festival"));

beforeAll(async () => {
  jfkOnce = await jfk16k(); // 11 s: enough for the moved copies, and half the Rubber Band work
  jfk = concat(jfkOnce, jfkOnce); // 22 s: a sample as a user gives one
});

const profileOf = (audio: Float32Array): VoiceProfile => {
  const profile = analyseVoiceSample(audio, SR).profile;
  if (!profile) throw new Error("no profile");
  return profile;
};

describe("the speaker's apparent sex and age", () => {
  it("JFK speaking at 255 Hz is a man: his formants say so, and his bases are men's voices in both languages", () => {
    const profile = profileOf(jfk);
    expect(profile.medianHz).toBeGreaterThan(220); // a woman's register by pitch
    expect(profile.apparent).toMatchObject({ sex: "male", age: "adult", by: "formants" });
    expect(profile.apparent!.formantSpacingHz).toBeLessThan(APPARENT_RULES.maleBelowHz);
    for (const language of ["zh", "en"]) {
      const bases = likelyBases(offline(language), profile);
      expect(bases.length).toBeGreaterThan(0);
      for (const base of bases) {
        expect(base.gender).toBe("male");
        expect(base.ageGroup).not.toBe("child");
      }
      expect(bases.map((b) => b.slug)).not.toContain("zh-espeak-duoduo");
    }
  });

  it("pitched up 1.4× or down an octave with his formants kept, he is still a man", async () => {
    for (const pitchScale of [1.4, 0.5]) {
      const [moved] = await stretchAndShift([jfkOnce], SR, { pitchScale, preserveFormants: true });
      const profile = profileOf(moved!);
      if (pitchScale > 1) expect(profile.medianHz).toBeGreaterThan(300);
      expect(profile.apparent).toMatchObject({ sex: "male", age: "adult" });
    }
  });

  it("played faster — his formants up with his pitch — he sounds a woman at ×1.25 and a child at ×1.45", () => {
    const woman = profileOf(resample(jfk, SR, SR / 1.25));
    expect(woman.apparent).toMatchObject({ sex: "female", age: "adult" });
    expect(likelyBases(offline("zh"), woman).every((v) => v.gender === "female" && v.ageGroup !== "child")).toBe(true);
    const child = profileOf(resample(jfk, SR, SR / 1.45));
    expect(child.apparent).toMatchObject({ age: "child" });
    expect(likelyBases(offline("zh"), child).map((v) => v.slug)).toEqual(["zh-espeak-duoduo"]);
  });

  it("festival's HTS voice (a woman's recordings) is a woman, and never gets a man's base", async () => {
    if (!festivalAvailable()) throw new Error("needs festival: apt-get install festival festvox-us-slt-hts");
    const sarah = library.find((v) => v.slug === "en-festival-sarah")!;
    const speech = await speakAsFloats(new FestivalEngine({}), sarah, `${sarah.sampleText} ${sarah.sampleText}`, SR);
    const profile = profileOf(speech);
    expect(profile.apparent).toMatchObject({ sex: "female", age: "adult" });
    for (const language of ["zh", "en"]) {
      for (const base of likelyBases(offline(language), profile)) expect(base.gender).toBe("female");
    }
  });

  it("eSpeak's men, women and children are what the library's labels say", async () => {
    const engine = new EspeakEngine({});
    const people = library.filter(
      (v) => v.engine === "espeak-ng" && v.gender !== "neutral" && !["robot", "whisper"].includes(v.style),
    );
    expect(people.length).toBeGreaterThanOrEqual(8);
    for (const voice of people) {
      const profile = profileOf(await speakAsFloats(engine, voice, voice.sampleText, SR));
      const expected = voice.ageGroup === "child" ? { age: "child" } : { sex: voice.gender, age: "adult" };
      expect({ slug: voice.slug, ...profile.apparent }).toMatchObject({ slug: voice.slug, ...expected });
    }
  });

  it("decides by pitch only where the formant spacing is in between or missing", () => {
    const between = (APPARENT_RULES.maleBelowHz + APPARENT_RULES.femaleFromHz) / 2;
    expect(judgeSpeaker(120, between, null)).toMatchObject({ sex: "male", by: "pitch" });
    expect(judgeSpeaker(200, between, null)).toMatchObject({ sex: "female", age: "adult", by: "pitch" });
    // a man's spacing outweighs any pitch; a woman's too
    expect(judgeSpeaker(400, 1000, null)).toMatchObject({ sex: "male", age: "adult", by: "formants" });
    expect(judgeSpeaker(110, 1200, 1210)).toMatchObject({ sex: "female", age: "adult" });
    // a child needs both a child's spacing and a child's pitch
    expect(judgeSpeaker(300, 1290, 1320)).toMatchObject({ sex: "female", age: "child" });
    expect(judgeSpeaker(180, 1290, 1320)).toMatchObject({ age: "adult" });
    expect(judgeSpeaker(140, null, null)).toMatchObject({ sex: "male", by: "pitch" });
    expect(judgeSpeaker(320, null, null)).toMatchObject({ sex: "female", age: "child", by: "pitch" });
  });

  it("counts the frames an octave off (the tracker on a harmonic) at their fold when taking the median pitch", () => {
    // 100 and 105 Hz are the voice; the 45 frames at 200 Hz are its second harmonic
    const track = [...Array(30).fill(100), ...Array(25).fill(105), ...Array(45).fill(200), null];
    expect(guardedMedianPitch(track)).toBe(100); // the plain median: 105, pulled up by the slips
    const real = [...Array(50).fill(110), ...Array(50).fill(150)];
    expect(guardedMedianPitch(real)).toBe(150); // a real spread is not an octave error
    expect(guardedMedianPitch([null, null])).toBeNull();
  });
});
