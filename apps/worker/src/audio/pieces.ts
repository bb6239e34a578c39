import { msToSample, type Pcm, SAMPLE_RATE } from "./pcm.ts";
import type { SpeechRegion } from "./vad.ts";

/** One speech region placed inside a compacted clip: clip time `clipMs` is recording time `sourceMs`. */
interface Piece {
  clipMs: number;
  sourceMs: number;
  lengthMs: number;
}

/**
 * Speech regions glued into one clip with long pauses shortened (to `maxPauseMs`), so an engine
 * that pays per 30-s window (whisper) spends it on speech; `toSourceMs` maps clip times back.
 */
export interface Clip {
  audio: Float32Array;
  durationMs: number;
  startMs: number;
  endMs: number;
  toSourceMs(clipMs: number): number;
}

export function buildClip(pcm: Pcm, regions: readonly SpeechRegion[], maxPauseMs = 600): Clip {
  const pieces: Piece[] = [];
  let clipMs = 0;
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    if (i > 0) {
      const pause = r.startMs - regions[i - 1]!.endMs;
      if (pause > 0) {
        const kept = Math.min(pause, maxPauseMs);
        // A kept pause is real audio: the piece starts early by `kept` ms.
        pieces.push({ clipMs, sourceMs: r.startMs - kept, lengthMs: kept });
        clipMs += kept;
      }
    }
    pieces.push({ clipMs, sourceMs: r.startMs, lengthMs: r.endMs - r.startMs });
    clipMs += r.endMs - r.startMs;
  }
  const audio = new Float32Array(msToSample(clipMs));
  for (const p of pieces) {
    const from = msToSample(p.sourceMs);
    const chunk = pcm.slice(from, from + msToSample(p.lengthMs));
    audio.set(chunk.subarray(0, Math.max(0, audio.length - msToSample(p.clipMs))), msToSample(p.clipMs));
  }
  const first = regions[0]?.startMs ?? 0;
  const last = regions[regions.length - 1]?.endMs ?? 0;
  return {
    audio,
    durationMs: Math.round((audio.length * 1000) / SAMPLE_RATE),
    startMs: first,
    endMs: last,
    toSourceMs(t: number) {
      if (pieces.length === 0) return first;
      let lo = 0;
      let hi = pieces.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (pieces[mid]!.clipMs <= t) lo = mid;
        else hi = mid - 1;
      }
      const p = pieces[lo]!;
      const offset = Math.max(0, Math.min(p.lengthMs, t - p.clipMs));
      return Math.round(Math.min(last, Math.max(first, p.sourceMs + offset)));
    },
  };
}
