// Recordings degraded the way real ones are (bench/robustness.mjs, bench/language-check.mjs): noise at a
// measured SNR (seeded: tests/helpers/noise.ts, so every run hears the same noise), a phone line, a
// reverberant room, quiet and fast talkers, low-bitrate codecs and the containers phones and browsers write.
// Import it after tsx's register() (it loads the worker's TypeScript).
import { execFileSync } from "node:child_process";
import path from "node:path";

const { programPath } = await import("../../packages/runtime/src/index.ts");
const { decodeToPcm, writeWav } = await import("../../apps/worker/src/audio/pcm.ts");
const { detectSpeech } = await import("../../apps/worker/src/audio/vad.ts");
const { pinkNoise, roomReverb, whiteNoise } = await import("../../tests/helpers/noise.ts");

const RATE = 16_000;
const ffmpeg = programPath("ffmpeg");

function sh(file, args) {
  return execFileSync(file, args, { stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 28 });
}

/**
 * The degradations, each `{name, seeded?, make(source, seed) → file}` writing into `dir`; a source is
 * `{file, tag}` (a 16 kHz mono WAV and a short name unique in `dir`). `seeded` ones are made once per noise seed.
 */
export function degradations(dir) {
  /** Power of the speech's active frames (those the product's VAD calls speech). */
  function activePower(samples) {
    const pcm = { samples, length: samples.length, slice: (a, b) => samples.slice(a, b) };
    const regions = detectSpeech(pcm);
    let sum = 0;
    let n = 0;
    for (const r of regions) {
      for (let i = (r.startMs * RATE) / 1000; i < Math.min(samples.length, (r.endMs * RATE) / 1000); i++) {
        sum += samples[i] ** 2;
        n++;
      }
    }
    return n ? sum / n : 1e-10;
  }
  function mixAt(speech, noise, snrDb) {
    let np = 0;
    for (const v of noise) np += v * v;
    np /= noise.length;
    const k = Math.sqrt(activePower(speech) / (np * 10 ** (snrDb / 10)));
    return speech.map((v, i) => v + noise[i] * k);
  }
  async function pcmOf(file) {
    const pcm = await decodeToPcm(file);
    return pcm.slice(0, pcm.length);
  }
  async function save(samples, name) {
    const file = path.join(dir, name);
    await writeWav(file, samples);
    return file;
  }
  const encode = (input, name, args) => {
    const out = path.join(dir, name);
    sh(ffmpeg, ["-v", "error", "-y", "-i", input, ...args, out]);
    return out;
  };

  return [
    { name: "clean wav", make: (s) => s.file },
    {
      name: "white noise 10 dB",
      seeded: true,
      make: async (s, seed) =>
        save(
          mixAt(await pcmOf(s.file), whiteNoise((await pcmOf(s.file)).length, seed), 10),
          `${s.tag}-white-${seed}.wav`,
        ),
    },
    {
      name: "pink noise 5 dB",
      seeded: true,
      make: async (s, seed) =>
        save(mixAt(await pcmOf(s.file), pinkNoise((await pcmOf(s.file)).length, seed), 5), `${s.tag}-pink-${seed}.wav`),
    },
    {
      name: "phone line (8 kHz μ-law)",
      make: (s) => {
        const line = encode(s.file, `${s.tag}-phone.wav`, [
          "-af",
          "highpass=f=300,lowpass=f=3400",
          "-ar",
          "8000",
          "-c:a",
          "pcm_mulaw",
        ]);
        return line;
      },
    },
    {
      name: "room reverberation",
      seeded: true,
      make: async (s, seed) => save(roomReverb(await pcmOf(s.file), seed), `${s.tag}-reverb-${seed}.wav`),
    },
    {
      name: "quiet (−30 dB)",
      make: async (s) =>
        save(
          (await pcmOf(s.file)).map((v) => v * 10 ** (-30 / 20)),
          `${s.tag}-quiet.wav`,
        ),
    },
    { name: "fast talker (×1.3)", make: (s) => encode(s.file, `${s.tag}-fast.wav`, ["-af", "atempo=1.3"]) },
    { name: "mp3 32 kbit/s", make: (s) => encode(s.file, `${s.tag}.mp3`, ["-c:a", "libmp3lame", "-b:a", "32k"]) },
    {
      name: "m4a 44.1 kHz stereo",
      make: (s) => encode(s.file, `${s.tag}.m4a`, ["-ar", "44100", "-ac", "2", "-c:a", "aac"]),
    },
    {
      name: "webm opus 12 kbit/s",
      make: (s) => encode(s.file, `${s.tag}.webm`, ["-c:a", "libopus", "-b:a", "12k", "-f", "webm"]),
    },
    {
      name: ".opus voice note",
      make: (s) => encode(s.file, `${s.tag}.opus`, ["-ar", "16000", "-c:a", "libopus", "-b:a", "16k", "-f", "ogg"]),
    },
    { name: "flac", make: (s) => encode(s.file, `${s.tag}.flac`, ["-c:a", "flac"]) },
  ];
}
