import { createHash } from "node:crypto";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { encodeWav } from "../../audio/pcm.ts";
import { parseWav } from "../../audio/speech-audio.ts";
import { PermanentVoiceError } from "./errors.ts";

/**
 * Cloning through a GPT-SoVITS server's api_v2 (`VOICE_CLONE_ENGINE=gpt-sovits`, docs/voice.md
 * "Configured engines"). api_v2 takes the reference clip as a *path on its own machine*
 * (`ref_audio_path`) and refuses clips outside 3–10 s, so the worker writes the loudest ≤ 9 s of the
 * sample into VOICE_CLONE_REF_DIR — a folder both see (the same machine, or a shared volume mounted
 * where VOICE_CLONE_REF_DIR_REMOTE says) — named by the clip's SHA-256, so a clip is written once
 * however many sentences or syllables ask for it, and two voices never share a name.
 */

/** api_v2 refuses references shorter than 3 s or longer than 10 s (TTS.py: 48 000…160 000 samples at 16 kHz). */
export const GPT_SOVITS_REF_MIN_SECONDS = 3;
export const GPT_SOVITS_REF_MAX_SECONDS = 10;
/** what is taken from a longer sample: inside the limits with room for the server's own resampling */
const REF_TAKE_SECONDS = 9;

export interface GptSovitsCloneConfig {
  VOICE_CLONE_URL?: string | undefined;
  VOICE_CLONE_REF_DIR?: string | undefined;
  VOICE_CLONE_REF_DIR_REMOTE?: string | undefined;
}

/**
 * The loudest `seconds` of `samples` (the window with the most energy, in 0.25 s steps): of a 10–120 s
 * voice sample, the stretch with the most speech in it rather than a pause or a breath.
 */
export function loudestWindow(samples: Int16Array, rate: number, seconds: number): Int16Array {
  const size = Math.round(seconds * rate);
  if (samples.length <= size) return samples;
  const step = Math.round(rate / 4);
  const blocks: number[] = [];
  for (let from = 0; from < samples.length; from += step) {
    let sum = 0;
    const to = Math.min(samples.length, from + step);
    for (let i = from; i < to; i++) sum += (samples[i]! / 32768) ** 2;
    blocks.push(sum);
  }
  const perWindow = Math.floor(size / step);
  let best = 0;
  let bestEnergy = -1;
  let energy = 0;
  for (let b = 0; b < blocks.length; b++) {
    energy += blocks[b]!;
    if (b >= perWindow) energy -= blocks[b - perWindow]!;
    const start = b - perWindow + 1;
    if (start >= 0 && (start + perWindow) * step <= samples.length && energy > bestEnergy) {
      bestEnergy = energy;
      best = start;
    }
  }
  return samples.subarray(best * step, best * step + size);
}

/**
 * Writes the reference clip (a WAV of any length from referenceWav) where the server can read it and
 * answers that path as the server sees it. Too short a sample is a permanent refusal.
 */
export async function placeReference(config: GptSovitsCloneConfig, reference: Buffer): Promise<string> {
  if (!config.VOICE_CLONE_REF_DIR) {
    throw new PermanentVoiceError(
      "engine-unavailable",
      "VOICE_CLONE_ENGINE=gpt-sovits needs VOICE_CLONE_REF_DIR: a folder the GPT-SoVITS server can read",
    );
  }
  const audio = parseWav(reference);
  if (!audio) throw new PermanentVoiceError("remote-failed", "the reference clip is not a WAV file");
  if (audio.samples.length < GPT_SOVITS_REF_MIN_SECONDS * audio.sampleRate) {
    throw new PermanentVoiceError(
      "remote-failed",
      `GPT-SoVITS needs a reference of at least ${GPT_SOVITS_REF_MIN_SECONDS} s of speech`,
    );
  }
  const clip = encodeWav(loudestWindow(audio.samples, audio.sampleRate, REF_TAKE_SECONDS), audio.sampleRate);
  const name = `ref-${createHash("sha256").update(clip).digest("hex").slice(0, 32)}.wav`;
  const local = path.join(config.VOICE_CLONE_REF_DIR, name);
  const present = await stat(local).then(
    (s) => s.size === clip.length,
    () => false,
  );
  if (!present) {
    await mkdir(config.VOICE_CLONE_REF_DIR, { recursive: true });
    // written whole, then renamed: a server reading it never sees half a file
    const partial = `${local}.${process.pid}.partial`;
    await writeFile(partial, clip);
    await rename(partial, local);
  }
  const remoteDir = config.VOICE_CLONE_REF_DIR_REMOTE ?? config.VOICE_CLONE_REF_DIR;
  return `${remoteDir.replace(/\/+$/, "")}/${name}`;
}

/**
 * The body of `POST {VOICE_CLONE_URL}/tts` (api_v2): one text in the reference's voice, as WAV.
 * Languages: "zh", "en", or "auto" where the text's is not known; the reference's is "auto".
 */
export function gptSovitsBody(request: {
  text: string;
  refAudioPath: string;
  referenceText?: string | undefined;
  language?: "zh" | "en" | undefined;
  speed?: number | undefined;
}) {
  return {
    text: request.text,
    text_lang: request.language ?? "auto",
    ref_audio_path: request.refAudioPath,
    // empty: api_v2 then clones from the sound alone (what an uploaded sample allows)
    prompt_text: request.referenceText ?? "",
    prompt_lang: "auto",
    media_type: "wav",
    streaming_mode: false,
    text_split_method: "cut5",
    speed_factor: Math.max(0.5, Math.min(2, request.speed ?? 1)),
  };
}
