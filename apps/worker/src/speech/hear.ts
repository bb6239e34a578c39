import { applyFrontEnd, type FrontEndOptions, type FrontEndReport } from "../audio/front-end.ts";
import type { Pcm } from "../audio/pcm.ts";
import { detectSpeech, type EnergyProfile, energyProfile, type SpeechRegion } from "../audio/vad.ts";
import type { AsrEngine, AsrLanguage, AsrResult, AsrSegment, TranscribeOptions } from "../engines/asr/types.ts";
import { batchRegions } from "../jobs/checkpoint.ts";

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
  /** how much of the speech this call recognised, and how much an earlier attempt had (checkpoints) */
  recognised: { regions: number; ms: number; resumedRegions: number; resumedMs: number };
}

/** What an earlier attempt recognised: the first `regionsDone` regions, as `segments`. */
export interface HeardSoFar {
  segments: AsrSegment[];
  regionsDone: number;
  /** the language the engine heard (for "auto") */
  language?: string;
}

/**
 * Recognition in steps (checkpoints, issue 32): the regions go to the engine in batches of about
 * `batchMs` of recording, and `onBatch` is awaited after each with everything recognised so far.
 */
export interface HearSteps {
  batchMs?: number;
  /** called once the regions are known: what an earlier attempt already recognised of them, or null */
  resume?: (regions: SpeechRegion[]) => HeardSoFar | null;
  onBatch?: (soFar: HeardSoFar & { offsetMs: number }) => Promise<void>;
  /**
   * The engine for the batches after the first once the language is known ("auto" identifies it on
   * the first batch; the rest go straight to that language's engine, as one call would have).
   */
  engineFor?: (language: string) => AsrEngine | undefined;
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
  steps: HearSteps = {},
): Promise<Hearing> {
  const started = performance.now();
  const front = applyFrontEnd(pcm, profile, frontEnd);
  const heard = front.pcm;
  const regions = detectSpeech(heard, {}, heard === pcm ? profile : energyProfile(heard));
  const base = { report: front.report, regions, heard, frontEndMs: Math.round(performance.now() - started) };
  const none = { regions: 0, ms: 0, resumedRegions: 0, resumedMs: 0 };
  if (regions.length === 0) return { ...base, result: { segments: [] }, twoHearings: false, recognised: none };
  // Dereverberated audio is heard once: in a reverberant room the engine is sure of the wrong hearing.
  const twice = front.report.denoised && frontEnd.twoHearings !== false;
  const spanMs = (rs: readonly SpeechRegion[]) => rs.reduce((sum, r) => sum + r.endMs - r.startMs, 0);
  const totalMs = spanMs(regions) || 1;

  const earlier = steps.resume?.(regions) ?? null;
  const regionsDone = earlier?.regionsDone ?? 0;
  const segments: AsrSegment[] = [...(earlier?.segments ?? [])];
  let language = earlier?.language;
  let twoHearings = false;
  const recognised = { ...none, resumedRegions: regionsDone, resumedMs: spanMs(regions.slice(0, regionsDone)) };
  let doneMs = recognised.resumedMs;
  let index = 0;
  // Batches follow from all regions (not from the remaining ones), so a resumed run groups them as an uncut one.
  const batches = steps.batchMs ? batchRegions(regions, steps.batchMs) : [regions];
  for (const whole of batches) {
    const batch = whole.filter((_, i) => index + i >= regionsDone);
    index += whole.length;
    if (batch.length === 0) continue;
    const batchMs = spanMs(batch);
    const progress = (from: number, share: number) => (f: number) =>
      options.onProgress?.((doneMs + (from + f * share) * batchMs) / totalMs);
    const known = language && language !== "auto" ? language : undefined;
    const use = (known && steps.engineFor?.(known)) || engine;
    const asked = use === engine ? options.language : (known as AsrLanguage);
    const first = await use.transcribe(heard, {
      ...options,
      language: asked,
      regions: batch,
      onProgress: progress(0, twice ? 0.5 : 1),
    });
    language ??= first.language;
    const confident = first.segments.length > 0 && first.segments.every((s) => s.confidence !== undefined);
    if (twice && confident) {
      const second = await use.transcribe(pcm, {
        ...options,
        language: asked,
        regions: batch,
        onSegment: undefined,
        onProgress: progress(0.5, 0.5),
      });
      segments.push(...keepSurer(first.segments, second.segments));
      twoHearings = true;
    } else {
      segments.push(...first.segments);
    }
    doneMs += batchMs;
    recognised.regions += batch.length;
    recognised.ms += batchMs;
    if (steps.onBatch) {
      // after the last batch too: a cut during diarization then recognises nothing again
      await steps.onBatch({ segments, regionsDone: index, offsetMs: whole[whole.length - 1]!.endMs, language });
    }
  }
  return {
    ...base,
    result: { segments, ...(language ? { language } : {}) },
    twoHearings,
    recognised,
  };
}

/**
 * Two hearings of the same speech regions, merged. The hearings may cut the same speech into different
 * segments (an engine joins utterances whose text it cannot separate), so segments are gathered into
 * groups that overlap in time, across both hearings; each group takes the segments of the hearing that
 * was surer there (duration-weighted mean confidence) — or, where only one hearing has text, that one's.
 */
export function keepSurer(a: readonly AsrSegment[], b: readonly AsrSegment[]): AsrSegment[] {
  const all = [...a.map((s) => ({ s, from: 0 })), ...b.map((s) => ({ s, from: 1 }))].sort(
    (x, y) => x.s.startMs - y.s.startMs || x.from - y.from,
  );
  const kept: AsrSegment[] = [];
  let group: typeof all = [];
  let groupEnd = Number.NEGATIVE_INFINITY;
  const close = () => {
    if (group.length === 0) return;
    const sureness = [0, 1].map((from) => {
      const mine = group.filter((g) => g.from === from);
      if (mine.length === 0) return Number.NEGATIVE_INFINITY;
      const weight = (g: (typeof all)[number]) => Math.max(1, g.s.endMs - g.s.startMs);
      const total = mine.reduce((sum, g) => sum + weight(g), 0);
      return mine.reduce((sum, g) => sum + (g.s.confidence ?? Number.NEGATIVE_INFINITY) * weight(g), 0) / total;
    });
    const winner = sureness[1]! > sureness[0]! ? 1 : 0;
    const chosen = group.filter((g) => g.from === winner);
    kept.push(...(chosen.length ? chosen : group).map((g) => g.s));
    group = [];
  };
  for (const item of all) {
    if (item.s.startMs >= groupEnd) close();
    group.push(item);
    groupEnd = Math.max(groupEnd, item.s.endMs);
  }
  close();
  return kept;
}
