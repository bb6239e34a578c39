import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { GAUSS_DIMS, GAUSS_LENGTH, GAUSS_MODEL, type SpeakerVoice } from "@yuelu/domain/people/prints";
import { MFCC_COEFFS, MFCC_FRAME, MFCC_HOP, MfccExtractor } from "../audio/features.ts";
import { msToSample, type Pcm } from "../audio/pcm.ts";
import type { EnergyProfile } from "../audio/vad.ts";
import type { TimeSpan } from "./diarize.ts";

/**
 * Recording-independent voiceprints of a transcript's speakers (docs/people.md), computed once the speakers are
 * known: every speaker's segments pooled into one print. Unlike diarization's prints (normalised across one
 * recording, so they only tell that recording's speakers apart), these are comparable across recordings.
 *
 * Behind one adapter, `SpeakerEmbedder`: the offline floor (`mfcc-gauss-v1`, MFCC statistics: runs anywhere)
 * and a neural embedding through sherpa-onnx (3D-Speaker/ERes2Net, WeSpeaker…) when its model file is installed
 * as DATA_DIR/models/speaker-embedding/<name>.onnx — nothing is fetched for it.
 */
export interface SpeakerEmbedder {
  /** stored beside every print: prints of two models are never compared */
  readonly model: string;
  /** the print of one speaker's speech (its segments), or null when there is too little */
  embed(pcm: Pcm, spans: readonly TimeSpan[], profile: Pick<EnergyProfile, "db" | "threshold">): number[] | null;
}

/** A speaker's print reads at most this much of its speech (evenly spread over its segments). */
const MAX_PRINT_MS = 90_000;
const FRAME_MS = 10;

/** Speech frames (10 ms, by the recording's energy profile) inside `spans`, as frame numbers of the recording. */
function speechFrames(pcm: Pcm, spans: readonly TimeSpan[], profile: Pick<EnergyProfile, "db" | "threshold">) {
  const frames: number[] = [];
  const last = Math.floor((pcm.length - MFCC_FRAME) / MFCC_HOP);
  for (const span of spans) {
    const from = Math.max(0, Math.floor(span.startMs / FRAME_MS));
    const to = Math.min(last, Math.floor(span.endMs / FRAME_MS));
    for (let f = from; f <= to; f++) if ((profile.db[f] ?? -100) >= profile.threshold) frames.push(f);
  }
  return frames;
}

/** Every `stride`-th of `frames`, at most `max` of them. */
function thin(frames: number[], max: number): number[] {
  if (frames.length <= max) return frames;
  const stride = frames.length / max;
  return Array.from({ length: max }, (_, i) => frames[Math.floor(i * stride)]!);
}

/** The offline floor: the sufficient statistics of c1..c19 over the speaker's speech frames (prints.ts). */
export const mfccGaussEmbedder: SpeakerEmbedder = {
  model: GAUSS_MODEL,
  embed(pcm, spans, profile) {
    const frames = thin(speechFrames(pcm, spans, profile), MAX_PRINT_MS / FRAME_MS);
    if (frames.length <= 2 * GAUSS_DIMS) return null;
    const mfcc = new MfccExtractor();
    const c = new Float64Array(MFCC_COEFFS);
    const d = GAUSS_DIMS;
    const out = new Array<number>(GAUSS_LENGTH).fill(0);
    // window by window (runs of neighbouring frames): never the whole recording as floats at once
    for (const run of runsOf(frames)) {
      // one sample before the run: the MFCCs' pre-emphasis reads it
      const from = Math.max(0, run[0]! * MFCC_HOP - 1);
      const audio = pcm.slice(from, run[run.length - 1]! * MFCC_HOP + MFCC_FRAME);
      for (const f of run) {
        mfcc.frame(audio, f * MFCC_HOP - from, c);
        out[0]! += 1;
        let k = 1 + d;
        for (let a = 0; a < d; a++) {
          const x = c[a + 1]!;
          out[1 + a]! += x;
          for (let b = 0; b <= a; b++) out[k++]! += x * c[b + 1]!;
        }
      }
    }
    return out;
  },
};

/** `frames` (ascending) cut into runs of neighbours, each at most MAX_RUN_FRAMES long (one window each). */
const MAX_RUN_FRAMES = 3000;
function runsOf(frames: number[]): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  for (const f of frames) {
    const last = run[run.length - 1];
    if (last !== undefined && (f < last || f - last > 50 || run.length >= MAX_RUN_FRAMES)) {
      runs.push(run);
      run = [];
    }
    run.push(f);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** The speech of `spans` (speech frames only), at most MAX_PRINT_MS of it, as one stretch of floats. */
function speechAudio(pcm: Pcm, spans: readonly TimeSpan[], profile: Pick<EnergyProfile, "db" | "threshold">) {
  const frames = thin(speechFrames(pcm, spans, profile), MAX_PRINT_MS / FRAME_MS);
  const hop = msToSample(FRAME_MS);
  const out = new Float32Array(frames.length * hop);
  let i = 0;
  for (const run of runsOf(frames)) {
    const from = run[0]! * hop;
    const audio = pcm.slice(from, (run[run.length - 1]! + 1) * hop);
    for (const f of run) out.set(audio.subarray(f * hop - from, f * hop - from + hop), hop * i++);
  }
  return out;
}

interface SherpaExtractor {
  createStream(): {
    acceptWaveform(input: { sampleRate: number; samples: Float32Array }): void;
    inputFinished(): void;
  };
  isReady(stream: unknown): boolean;
  compute(stream: unknown, enableExternalBuffer?: boolean): Float32Array;
}

/** A neural speaker embedding through sherpa-onnx-node, from a model file on disk. */
export function sherpaEmbedder(modelFile: string): SpeakerEmbedder {
  const sherpa = createRequire(import.meta.url)("sherpa-onnx-node") as {
    SpeakerEmbeddingExtractor: new (config: { model: string; numThreads?: number; debug?: boolean }) => SherpaExtractor;
  };
  const extractor = new sherpa.SpeakerEmbeddingExtractor({ model: modelFile, numThreads: 1, debug: false });
  return {
    model: `sherpa:${path.basename(modelFile)}`,
    embed(pcm, spans, profile) {
      const samples = speechAudio(pcm, spans, profile);
      if (samples.length < msToSample(1000)) return null;
      const stream = extractor.createStream();
      stream.acceptWaveform({ sampleRate: 16_000, samples });
      stream.inputFinished();
      if (!extractor.isReady(stream)) return null;
      return Array.from(extractor.compute(stream, false));
    },
  };
}

let chosen: { dir: string; embedder: SpeakerEmbedder } | undefined;

/**
 * The best embedder this machine has: the first DATA_DIR/models/speaker-embedding/*.onnx that sherpa-onnx
 * loads, else the offline floor. Chosen once per process.
 */
export function speakerEmbedder(dataDir: string, log?: { error(obj: unknown, msg?: string): void }): SpeakerEmbedder {
  const dir = path.resolve(dataDir, "models", "speaker-embedding");
  if (chosen?.dir === dir) return chosen.embedder;
  let embedder: SpeakerEmbedder = mfccGaussEmbedder;
  const file = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".onnx"))
        .sort()[0]
    : undefined;
  if (file) {
    try {
      embedder = sherpaEmbedder(path.join(dir, file));
    } catch (err) {
      log?.error({ err, file }, "the speaker embedding model did not load: voiceprints use MFCC statistics");
    }
  }
  chosen = { dir, embedder };
  return embedder;
}

/**
 * One print per speaker of a finished transcript: `speakers[i]` is segment i's speaker. Speakers whose speech
 * gives no print (too little) are left out; `speechMs` is all the speech heard from the speaker.
 */
export function speakerVoices(
  pcm: Pcm,
  segments: readonly TimeSpan[],
  speakers: readonly number[],
  profile: Pick<EnergyProfile, "db" | "threshold">,
  embedder: SpeakerEmbedder = mfccGaussEmbedder,
): SpeakerVoice[] {
  const spansOf = new Map<number, TimeSpan[]>();
  segments.forEach((s, i) => {
    const k = speakers[i] ?? 0;
    const list = spansOf.get(k) ?? [];
    list.push(s);
    spansOf.set(k, list);
  });
  const voices: SpeakerVoice[] = [];
  for (const [speaker, spans] of [...spansOf].sort((a, b) => a[0] - b[0])) {
    const vector = embedder.embed(pcm, spans, profile);
    if (!vector) continue;
    voices.push({
      speaker,
      model: embedder.model,
      vector,
      speechMs: speechFrames(pcm, spans, profile).length * FRAME_MS,
    });
  }
  return voices;
}
