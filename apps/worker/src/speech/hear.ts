import { applyFrontEnd, type FrontEndOptions, type FrontEndReport } from "../audio/front-end.ts";
import type { Pcm } from "../audio/pcm.ts";
import { detectSpeech, type EnergyProfile, energyProfile, type SpeechRegion } from "../audio/vad.ts";
import type { AsrEngine, AsrResult, AsrSegment, TranscribeOptions } from "../engines/asr/types.ts";

export interface Hearing {
  result: AsrResult;
  report: FrontEndReport;
  /** the speech regions recognised (found in what the engine heard) */
  regions: SpeechRegion[];
  /** the audio the engine heard (the recording itself when the front end changed nothing) */
  heard: Pcm;
  /** both the cleaned audio and the recording were recognised, and the surer text kept per chunk */
  twoHearings: boolean;
  /** wall time of the front end and the speech detection (ms) */
  frontEndMs: number;
}

/**
 * Recognition through the speech front end (issue 29), as every transcription runs it: the front end
 * measures the recording and, when it is noisy, cleans it; speech is found in what the engine will hear.
 * Cleaning helps most noisy recordings and costs some of them words (bench/robustness.mjs), so a cleaned
 * recording is heard twice — cleaned and as it is — and, chunk by chunk, the text the engine was surer of
 * is kept (engines that report a confidence; others keep the cleaned hearing). Clean recordings are
 * heard once, untouched.
 */
export async function hear(
  engine: AsrEngine,
  pcm: Pcm,
  profile: EnergyProfile,
  options: TranscribeOptions,
  frontEnd: FrontEndOptions & { /** false: the cleaned audio alone (bench) */ twoHearings?: boolean } = {},
): Promise<Hearing> {
  const started = performance.now();
  const front = applyFrontEnd(pcm, profile, frontEnd);
  const heard = front.pcm;
  const regions = detectSpeech(heard, {}, heard === pcm ? profile : energyProfile(heard));
  const base = { report: front.report, regions, heard, frontEndMs: Math.round(performance.now() - started) };
  if (regions.length === 0) return { ...base, result: { segments: [] }, twoHearings: false };
  const twice = front.report.denoised && frontEnd.twoHearings !== false;
  const progress = (from: number, share: number) => (f: number) => options.onProgress?.(from + f * share);
  const first = await engine.transcribe(heard.samples, {
    ...options,
    regions,
    onProgress: progress(0, twice ? 0.5 : 1),
  });
  const confident = first.segments.length > 0 && first.segments.every((s) => s.confidence !== undefined);
  if (!twice || !confident) return { ...base, result: first, twoHearings: false };
  const second = await engine.transcribe(pcm.samples, {
    ...options,
    regions,
    onSegment: undefined,
    onProgress: progress(0.5, 0.5),
  });
  return { ...base, result: { ...first, segments: keepSurer(first.segments, second.segments) }, twoHearings: true };
}

/**
 * Two hearings of the same chunks (same regions, so the same start times), merged: where both have
 * text, the one with the higher confidence; where only one has, that one.
 */
export function keepSurer(a: readonly AsrSegment[], b: readonly AsrSegment[]): AsrSegment[] {
  const byStart = new Map<number, AsrSegment>();
  for (const segment of [...a, ...b]) {
    const other = byStart.get(segment.startMs);
    if (!other || (segment.confidence ?? Number.NEGATIVE_INFINITY) > (other.confidence ?? Number.NEGATIVE_INFINITY)) {
      byStart.set(segment.startMs, segment);
    }
  }
  return [...byStart.values()].sort((x, y) => x.startMs - y.startMs);
}
