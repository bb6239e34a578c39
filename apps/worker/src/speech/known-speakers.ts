import {
  GAUSS_MODEL,
  type KnownPerson,
  matchThreshold,
  type Print,
  printSimilarity,
  validPrint,
} from "@yuelu/domain/people/prints";
import type { Pcm } from "../audio/pcm.ts";
import type { EnergyProfile } from "../audio/vad.ts";
import type { TimeSpan } from "./diarize.ts";
import type { SpeakerEmbedder } from "./speaker-prints.ts";

/** Least speech (ms) in one segment for it to be told as a known person's on its own. */
export const MIN_SEGMENT_SPEECH_MS = 1500;
/**
 * How much lower than a whole speaker's bar (prints.ts matchThreshold) one segment's similarity may be: a few
 * seconds of speech resemble their own voice less (bench/people.mjs: at ~4 s, −1.2 passes 62 % of a voice's
 * own segments and 0.6 % of another voice's).
 */
export const SEGMENT_SLACK = 0.3;
/** …and by how much it must beat every other known person (two known voices alike: neither is told). */
export const SEGMENT_MARGIN = 0.5;

/**
 * Speakers told apart with the voices the user has named (docs/people.md). Diarization alone may hear two voices
 * as one (voices alike, little speech each), and a merged speaker would then carry one known name for several
 * voices. So, where the user has named people, every segment with enough speech is also compared with them on
 * its own: one that sounds clearly like one of them (over the bar, and ahead of every other by the margin) is
 * that person's speaker; every other segment keeps the diarization's speaker. An unknown voice merged with a
 * known one is so left apart from it (its pooled print then matches no one and it stays unnamed), and a known
 * voice split by diarization comes together again.
 *
 * Answers the speakers again, numbered in order of first appearance.
 */
export function followKnownVoices(
  pcm: Pcm,
  segments: readonly TimeSpan[],
  speakers: readonly number[],
  profile: Pick<EnergyProfile, "db" | "threshold">,
  embedder: SpeakerEmbedder,
  people: readonly KnownPerson[],
): number[] {
  const model = embedder.model;
  const known = people.filter((p) => p.model === model && validPrint(p.model, p.centroid));
  if (known.length === 0 || segments.length === 0) return [...speakers];
  const bar = matchThreshold(model) - SEGMENT_SLACK;
  const keys = segments.map((segment, i) => {
    const own = `speaker:${speakers[i] ?? 0}`;
    if (segment.endMs - segment.startMs < MIN_SEGMENT_SPEECH_MS) return own;
    const print = embedder.embed(pcm, [segment], profile);
    if (!print || !validPrint(model, print) || speechMs(print, model) < MIN_SEGMENT_SPEECH_MS) return own;
    const ranked = known
      .map((p) => ({ id: p.id, similarity: printSimilarity(model, print, p.centroid) }))
      .sort((a, b) => b.similarity - a.similarity);
    const [best, second] = ranked;
    if (!best || best.similarity < bar) return own;
    if (second && best.similarity - second.similarity < SEGMENT_MARGIN) return own;
    return `person:${best.id}`;
  });
  const order = new Map<string, number>();
  return keys.map((key) => {
    if (!order.has(key)) order.set(key, order.size);
    return order.get(key) as number;
  });
}

/** The speech a print was made of (the floor print counts its 10 ms frames; a neural one: unknown, enough). */
function speechMs(print: Print, model: string): number {
  return model === GAUSS_MODEL ? (print[0] ?? 0) * 10 : Number.POSITIVE_INFINITY;
}
