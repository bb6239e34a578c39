import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyFrontEnd, type FrontEndOptions } from "../../apps/worker/src/audio/front-end.ts";
import { decodeToPcm, PCM_WINDOW, type Pcm, pcmFrom } from "../../apps/worker/src/audio/pcm.ts";
import { energyProfile } from "../../apps/worker/src/audio/vad.ts";
import { roomReverb, seededRandom, whiteNoise } from "../helpers/noise.ts";
import { clearestEnglishVoice, synthesise } from "../helpers/speech.ts";

/**
 * The front end's output is computed window by window as it is read (issue 44: a 3-hour recording is never
 * held twice): whatever windows are read, in whatever order — before any pass over the recording, across the
 * states the filters save, one sample long — they hold what one pass over the whole recording gives.
 */
let dir: string;
let speech: Float32Array;
const SCRIPT =
  "The committee met on Tuesday morning to discuss the budget for next year. Several members asked for more money for the library.";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-front-end-windows-"));
  const file = await synthesise(SCRIPT, path.join(dir, "speech.wav"), clearestEnglishVoice(), 0.5);
  const once = await decodeToPcm(file);
  // a few of the filters' saved states long (PCM_WINDOW each)
  const repeats = Math.ceil((PCM_WINDOW * 3.5) / once.length);
  speech = new Float32Array(once.length * repeats);
  for (let r = 0; r < repeats; r++) speech.set(once.slice(0, once.length), r * once.length);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** How many samples of `a` and `b` differ (−0 and 0 differ too: a 16-bit sample is never −0). */
function differences(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** The front end's output for `samples`, read in one pass from its start (a fresh run: nothing saved yet). */
function onePass(samples: Float32Array, options: FrontEndOptions): Float32Array {
  const pcm = pcmFrom(samples);
  return applyFrontEnd(pcm, energyProfile(pcm), options).pcm.slice(0, samples.length);
}

/** Quiet 8 kHz telephony: nothing above 4 kHz (a 255-tap windowed-sinc low-pass at 3.4 kHz), at −25 dB. */
function telephone(x: Float32Array): Float32Array {
  const taps = 255;
  const fc = 3400 / 16_000;
  const h = Float64Array.from({ length: taps }, (_, i) => {
    const n = i - (taps - 1) / 2;
    const sinc = n === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * n) / (Math.PI * n);
    const blackman =
      0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (taps - 1));
    return sinc * blackman * 0.056;
  });
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let s = 0;
    for (let j = 0; j < taps && j <= i; j++) s += h[j]! * x[i - j]!;
    out[i] = s;
  }
  return out;
}

const cases: { name: string; audio: () => Float32Array; options?: FrontEndOptions; expect: string }[] = [
  { name: "quiet speech (gain)", audio: () => speech.map((v) => v * 0.03), expect: "gain" },
  { name: "telephone-band speech (gain and the high shelf)", audio: () => telephone(speech), expect: "narrowBand" },
  {
    name: "noisy speech (the Wiener filter)",
    audio: () => {
      const noise = whiteNoise(speech.length, 11);
      return speech.map((v, i) => v + 0.05 * noise[i]!);
    },
    expect: "denoised",
  },
  {
    name: "a reverberant room (late reverberation suppressed)",
    audio: () => roomReverb(speech, 12),
    expect: "dereverberated",
  },
];

describe("the front end's output, window by window", () => {
  for (const c of cases) {
    it(`${c.name}: any windows, in any order, as one pass gives them`, () => {
      const samples = c.audio();
      const options = c.options ?? {};
      const whole = onePass(samples, options);
      const pcm = pcmFrom(samples);
      const { pcm: heard, report } = applyFrontEnd(pcm, energyProfile(pcm), options);
      expect(heard).not.toBe(pcm);
      if (c.expect === "gain") expect(report.gainDb).toBeGreaterThan(3);
      else expect(report[c.expect as "denoised" | "dereverberated" | "narrowBand"]).toBe(true);
      if (c.expect === "narrowBand") expect(report.gainDb).toBeGreaterThan(3);
      // the output changes the recording (or this would prove nothing)
      expect(whole.some((v, i) => Math.abs(v - samples[i]!) > 1e-3)).toBe(true);
      const random = seededRandom(5);
      const windows: [number, number][] = [
        // the end first (nothing saved yet), then across saved states, then single samples
        [samples.length - 40_000, samples.length],
        [PCM_WINDOW - 300, PCM_WINDOW + 300],
        [2 * PCM_WINDOW - 1, 2 * PCM_WINDOW],
        [0, 1],
        [0, 5000],
        ...Array.from({ length: 12 }, (): [number, number] => {
          const start = Math.floor(random() * samples.length);
          return [start, start + 1 + Math.floor(random() * 3 * PCM_WINDOW)];
        }),
      ];
      for (const [start, end] of windows) {
        const got = heard.slice(start, end);
        expect(got.length).toBe(Math.min(samples.length, end) - start);
        expect(differences(got, whole.subarray(start, end))).toBe(0);
      }
      // read whole: as 16-bit samples, and the energy profile read window by window
      const all = heard.samples;
      expect(
        differences(
          Float32Array.from(all, (v) => v / 32768),
          whole,
        ),
      ).toBe(0);
      const profile = energyProfile(heard);
      const wanted = energyProfile(pcmFrom(whole));
      expect(profile.threshold).toBe(wanted.threshold);
      expect(differences(profile.db, wanted.db)).toBe(0);
    });
  }

  it("hands the recording itself on when it changes nothing", () => {
    const pcm: Pcm = pcmFrom(speech);
    expect(applyFrontEnd(pcm, energyProfile(pcm), { enhance: false }).pcm).toBe(pcm);
  });
});
