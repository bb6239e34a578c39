import { MEDIA_LENGTH_TOLERANCE_SECONDS, MY_VOICE_MAX_SECONDS } from "@yuelu/contracts";
import type { Config, FileStore } from "@yuelu/runtime";
import { encodeWav } from "../../audio/pcm.ts";
import { decodeSpeech, ffmpegPipe } from "../../audio/speech-audio.ts";
import { decodeChannels } from "../../audio/stereo.ts";
import { mapLimit } from "../tts/programs.ts";
import {
  type PcmAudio,
  type SynthesisOptions,
  type SynthesisResult,
  type TtsEngine,
  TtsEngineUnavailableError,
} from "../tts/types.ts";
import { PermanentVoiceError } from "./errors.ts";
import { gptSovitsBody, placeReference } from "./gpt-sovits-clone.ts";
import { resample } from "./resample.ts";
import type { Separation } from "./separate.ts";

/**
 * The configured voice engines of issue 20 (docs/voice.md "Configured engines"): three small HTTP
 * clients, each used only when its URL is set. A clone server speaks text in the voice of a reference
 * clip, a converter sings vocals in the voice of a reference, a separator splits a song into vocals and
 * accompaniment. A 4xx answer is a request the server will never accept (PermanentVoiceError
 * "remote-failed", not retried); a 5xx, 408, 429, a timeout or an unreachable server is passing (a plain
 * Error: the task's next attempt tries again).
 */

/** The settings the clients read (all optional: a job without them runs offline). */
export type RemoteVoiceConfig = Partial<
  Pick<
    Config,
    | "VOICE_CLONE_URL"
    | "VOICE_CLONE_KEY"
    | "VOICE_CLONE_MODEL"
    | "VOICE_CLONE_ENGINE"
    | "VOICE_CLONE_REF_DIR"
    | "VOICE_CLONE_REF_DIR_REMOTE"
    | "VOICE_CONVERT_URL"
    | "VOICE_CONVERT_KEY"
    | "VOICE_SEPARATE_URL"
    | "VOICE_SEPARATE_KEY"
  >
>;

/** A song of 10 minutes on a busy GPU server: generous, but a hung server never holds the job forever. */
const CALL_TIMEOUT_MS = 10 * 60_000;
/** References are sent as 16 kHz mono WAV: what zero-shot and RVC encoders read. */
export const REFERENCE_RATE = 16_000;
/** The rate a clone server's speech is brought to, so every piece of one synthesis has the same. */
const CLONE_RATE = 24_000;

const base = (url: string) => url.replace(/\/+$/, "");

/**
 * POSTs and answers the body's bytes. Not postForAudio (engines/tts/openai.ts): that one retries a 400
 * and calls a 401 a missing TTS engine, while here every 4xx is the same permanent "remote-failed", and
 * two of the three calls are multipart.
 */
async function post(
  server: string,
  endpoint: string,
  body: string | FormData,
  options: { key?: string | undefined; signal?: AbortSignal | undefined },
): Promise<Buffer> {
  const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let status: number;
  let data: Buffer;
  try {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: {
        ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      },
      body,
      signal,
    });
    status = res.status;
    data = Buffer.from(await res.arrayBuffer());
  } catch (error) {
    options.signal?.throwIfAborted();
    const why = timeout.aborted
      ? `no answer in ${CALL_TIMEOUT_MS / 60_000} minutes`
      : error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    throw new Error(`the ${server} at ${endpoint} could not be reached: ${why}`);
  }
  const said = () => data.toString("utf8").replace(/\s+/g, " ").slice(0, 300);
  // 408 and 429 are the server asking to come back later, not a refusal of the request
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    throw new PermanentVoiceError("remote-failed", `the ${server} at ${endpoint} answered HTTP ${status}: ${said()}`);
  }
  if (status < 200 || status >= 300) throw new Error(`the ${server} at ${endpoint} answered HTTP ${status}: ${said()}`);
  if (data.length === 0) throw new Error(`the ${server} at ${endpoint} answered nothing`);
  return data;
}

/** An answer that is not the audio the contract promises: the server is wrong, not busy. */
async function decoded<T>(server: string, endpoint: string, decode: () => Promise<T>): Promise<T> {
  try {
    return await decode();
  } catch (error) {
    throw new PermanentVoiceError(
      "remote-failed",
      `the ${server} at ${endpoint} answered audio that cannot be read: ${(error as Error).message}`,
    );
  }
}

/** Any audio file's bytes as float channels at `rate` (ffmpeg reads WAV, MP3, FLAC… from stdin). */
async function decodeBytes(data: Buffer, rate: number, channels: 1 | 2, signal?: AbortSignal) {
  const args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", "pipe:0", "-ac", String(channels)];
  const out = await ffmpegPipe([...args, "-ar", String(rate), "-f", "f32le", "pipe:1"], data, signal);
  const all = new Float32Array(out.buffer, out.byteOffset, Math.floor(out.byteLength / 4));
  if (channels === 1) return [Float32Array.from(all)];
  const frames = Math.floor(all.length / 2);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = all[2 * i]!;
    right[i] = all[2 * i + 1]!;
  }
  return [left, right];
}

/** `audio` made exactly `length` long (a server's answer may be a few milliseconds off the input). */
function fit(audio: Float32Array, length: number): Float32Array {
  if (audio.length === length) return audio;
  const out = new Float32Array(length);
  out.set(audio.subarray(0, length));
  return out;
}

/** A 16-bit stereo WAV file's bytes. */
function stereoWav(left: Float32Array, right: Float32Array, rate: number): Buffer {
  const frames = Math.min(left.length, right.length);
  const interleaved = new Float32Array(frames * 2);
  for (let i = 0; i < frames; i++) {
    interleaved[2 * i] = left[i]!;
    interleaved[2 * i + 1] = right[i]!;
  }
  const wav = encodeWav(interleaved, rate);
  // encodeWav writes a mono header: the same data read as two channels is half the frames
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(rate * 4, 28);
  wav.writeUInt16LE(4, 32);
  return wav;
}

const audioPart = (wav: Buffer) => new Blob([new Uint8Array(wav)], { type: "audio/wav" });

/** Speech as a reference clip: 16 kHz mono WAV. */
export function referenceWav(samples: Float32Array, rate: number): Buffer {
  return encodeWav(resample(samples, rate, REFERENCE_RATE), REFERENCE_RATE);
}

/** A stored sample (any format the upload accepted, at most MY_VOICE_MAX_SECONDS) as a reference clip. */
export async function storedReference(files: FileStore, key: string): Promise<Buffer> {
  const longest = MY_VOICE_MAX_SECONDS + MEDIA_LENGTH_TOLERANCE_SECONDS;
  const [samples] = await files.withLocalCopy(key, (file) => decodeChannels(file, REFERENCE_RATE, 1, longest));
  return encodeWav(samples!, REFERENCE_RATE);
}

// ───────────────────────────── clone ─────────────────────────────

export interface CloneRequest {
  text: string;
  /** the voice to clone: 16 kHz mono WAV (referenceWav) */
  reference: Buffer;
  /** what is said in the reference, when known */
  referenceText?: string;
  /** OpenAI's own speed field (0.25–4); left out means the server's default */
  speed?: number;
  /** the text's language, when known (GPT-SoVITS is told; "auto" otherwise) */
  language?: "zh" | "en";
}

/**
 * VOICE_CLONE_ENGINE=openai-compatible (the default): `POST {VOICE_CLONE_URL}/v1/audio/speech` with
 * `{model, input, voice: "reference", response_format: "wav", reference_audio: <base64 WAV>,
 * reference_text?, speed?}`. VOICE_CLONE_ENGINE=gpt-sovits: `POST {VOICE_CLONE_URL}/tts` (api_v2) with the
 * reference written where the server reads it (gpt-sovits-clone.ts). Either answers audio bytes (any
 * format decodeSpeech reads).
 */
export async function cloneSpeech(config: RemoteVoiceConfig, request: CloneRequest, signal?: AbortSignal) {
  if (!config.VOICE_CLONE_URL) throw new PermanentVoiceError("engine-unavailable", "VOICE_CLONE_URL is not set");
  if (config.VOICE_CLONE_ENGINE === "gpt-sovits") {
    const endpoint = `${base(config.VOICE_CLONE_URL)}/tts`;
    const refAudioPath = await placeReference(config, request.reference);
    const body = JSON.stringify(gptSovitsBody({ ...request, refAudioPath }));
    const data = await post("GPT-SoVITS server", endpoint, body, { key: config.VOICE_CLONE_KEY, signal });
    return decoded("GPT-SoVITS server", endpoint, () => decodeSpeech(data, CLONE_RATE, signal));
  }
  const endpoint = `${base(config.VOICE_CLONE_URL).replace(/\/v1$/, "")}/v1/audio/speech`;
  const body = JSON.stringify({
    model: config.VOICE_CLONE_MODEL ?? "tts-1",
    input: request.text,
    voice: "reference",
    response_format: "wav",
    reference_audio: request.reference.toString("base64"),
    ...(request.referenceText ? { reference_text: request.referenceText } : {}),
    ...(request.speed !== undefined ? { speed: Math.max(0.25, Math.min(4, request.speed)) } : {}),
  });
  const data = await post("voice clone server", endpoint, body, { key: config.VOICE_CLONE_KEY, signal });
  return decoded("voice clone server", endpoint, () => decodeSpeech(data, CLONE_RATE, signal));
}

/** Speech of the clone server as floats at `rate`. */
export async function cloneSpeak(
  config: RemoteVoiceConfig,
  request: CloneRequest,
  rate: number,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const audio = await cloneSpeech(config, request, signal);
  return resample(
    Float32Array.from(audio.samples, (v) => v / 32768),
    audio.sampleRate,
    rate,
  );
}

/**
 * start_tts in a cloned voice: a TtsEngine made for one task, so renderSpeech drives the clone server
 * as it drives any engine (sentences two at a time, pitch shifted afterwards, loudness, encoding). The
 * library params on the task are the default voice's and mean nothing here.
 */
export function cloneTtsEngine(config: RemoteVoiceConfig, reference: Buffer): TtsEngine {
  const ready = async () => {
    if (!config.VOICE_CLONE_URL) {
      throw new TtsEngineUnavailableError(
        "voice-clone",
        "the voice is a clone but no clone server is configured: set VOICE_CLONE_URL",
        "unknown",
      );
    }
  };
  return {
    // the server speaks the OpenAI API: the name the logs and silence errors carry
    name: "openai-compatible",
    languages: ["zh", "en"],
    ready,
    async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
      await ready();
      let done = 0;
      const pieces = await mapLimit(
        texts,
        2,
        async (text): Promise<PcmAudio> => {
          const audio = text.trim()
            ? await cloneSpeech(
                config,
                { text, reference, speed: options.speed, language: options.language },
                options.signal,
              )
            : { sampleRate: CLONE_RATE, samples: new Int16Array(0) };
          options.onProgress?.(++done);
          if (audio.sampleRate === CLONE_RATE) return audio;
          const floats = resample(
            Float32Array.from(audio.samples, (v) => v / 32768),
            audio.sampleRate,
            CLONE_RATE,
          );
          const samples = Int16Array.from(floats, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
          return { sampleRate: CLONE_RATE, samples };
        },
        options.signal,
      );
      return { pieces, pitchApplied: 0 };
    },
  };
}

// ───────────────────────────── convert ─────────────────────────────

export interface ConvertRequest {
  /** the vocals (or the whole song when it has no separable accompaniment), mono */
  audio: Float32Array;
  rate: number;
  semitones: number;
  /** the target voice's speech: 16 kHz mono WAV */
  reference: Buffer;
}

/**
 * `POST {VOICE_CONVERT_URL}/convert` multipart `audio` (WAV), `semitones`, `reference` (WAV) → audio
 * bytes of the converted vocals, answered here at the input's rate and length.
 */
export async function convertRemote(
  config: RemoteVoiceConfig,
  request: ConvertRequest,
  signal?: AbortSignal,
): Promise<Float32Array> {
  if (!config.VOICE_CONVERT_URL) throw new PermanentVoiceError("engine-unavailable", "VOICE_CONVERT_URL is not set");
  const endpoint = `${base(config.VOICE_CONVERT_URL)}/convert`;
  const form = new FormData();
  form.append("audio", audioPart(encodeWav(request.audio, request.rate)), "audio.wav");
  form.append("semitones", String(request.semitones));
  form.append("reference", audioPart(request.reference), "reference.wav");
  const data = await post("voice conversion server", endpoint, form, { key: config.VOICE_CONVERT_KEY, signal });
  const [converted] = await decoded("voice conversion server", endpoint, () =>
    decodeBytes(data, request.rate, 1, signal),
  );
  return fit(converted!, request.audio.length);
}

// ───────────────────────────── separate ─────────────────────────────

/**
 * `POST {VOICE_SEPARATE_URL}/separate` multipart `audio` (stereo WAV) → JSON `{vocals: <base64 WAV>,
 * accompaniment: <base64 WAV>}`: the vocals read as mono, the accompaniment as stereo, both at the
 * song's rate and length.
 */
export async function separateRemote(
  config: RemoteVoiceConfig,
  left: Float32Array,
  right: Float32Array,
  rate: number,
  signal?: AbortSignal,
): Promise<Separation> {
  if (!config.VOICE_SEPARATE_URL) throw new PermanentVoiceError("engine-unavailable", "VOICE_SEPARATE_URL is not set");
  const endpoint = `${base(config.VOICE_SEPARATE_URL)}/separate`;
  const length = Math.min(left.length, right.length);
  const form = new FormData();
  form.append("audio", audioPart(stereoWav(left, right, rate)), "song.wav");
  const data = await post("vocal separation server", endpoint, form, { key: config.VOICE_SEPARATE_KEY, signal });
  return decoded("vocal separation server", endpoint, async () => {
    const answer = JSON.parse(data.toString("utf8")) as { vocals?: unknown; accompaniment?: unknown };
    if (typeof answer.vocals !== "string" || typeof answer.accompaniment !== "string") {
      throw new Error("the answer has no vocals and accompaniment (base64 WAV)");
    }
    const [vocals] = await decodeBytes(Buffer.from(answer.vocals, "base64"), rate, 1, signal);
    const [accL, accR] = await decodeBytes(Buffer.from(answer.accompaniment, "base64"), rate, 2, signal);
    return {
      vocals: fit(vocals!, length),
      accompaniment: [fit(accL!, length), fit(accR!, length)],
      // a separator always answers both stems: the accompaniment moves with the key as a stereo song's does
      mono: false,
    };
  });
}
