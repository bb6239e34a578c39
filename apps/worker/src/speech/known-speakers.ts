import {
  GAUSS_DIMS,
  GAUSS_MODEL,
  type KnownPerson,
  matchThreshold,
  type Print,
  printSimilarity,
  validPrint,
} from "@yuelu/domain/people/prints";
import type { Pcm } from "../audio/pcm.ts";
import type { EnergyProfile } from "../audio/vad.ts";
import { BIC_DIMS, type GaussStats, soundDistinct, type TimeSpan } from "./diarize.ts";
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
 * A diarized speaker that only one known person claims in part stays whole when its unclaimed rest does not sound
 * like a different speaker from the claimed part (diarization's own test, within this recording): a few seconds
 * of one voice resemble its print less than all of it does, and pulling the told part out under the name would
 * leave the larger rest unnamed. Whole, the speaker is then named (or not) by its print as a whole.
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
  wholeSpeakers(pcm, segments, speakers, profile, embedder, keys);
  const order = new Map<string, number>();
  return keys.map((key) => {
    if (!order.has(key)) order.set(key, order.size);
    return order.get(key) as number;
  });
}

/**
 * Per diarized speaker claimed in part by one person only (in `keys`): a rest that sounds like the claimed part
 * takes the claims back (the speaker stays whole); a rest too short to print goes with the claimed part; a rest
 * that sounds like someone else stays apart.
 */
function wholeSpeakers(
  pcm: Pcm,
  segments: readonly TimeSpan[],
  speakers: readonly number[],
  profile: Pick<EnergyProfile, "db" | "threshold">,
  embedder: SpeakerEmbedder,
  keys: string[],
): void {
  const model = embedder.model;
  for (const speaker of new Set(speakers)) {
    const own = `speaker:${speaker}`;
    const mine = segments.flatMap((_, i) => ((speakers[i] ?? 0) === speaker ? [i] : []));
    const claimedBy = new Set(mine.map((i) => keys[i]!).filter((key) => key !== own));
    if (claimedBy.size !== 1) continue;
    const [person] = claimedBy as Set<string>;
    const rest = mine.filter((i) => keys[i] === own);
    if (rest.length === 0) continue;
    const claimed = embedder.embed(
      pcm,
      mine.filter((i) => keys[i] === person).map((i) => segments[i]!),
      profile,
    );
    const unclaimed = embedder.embed(
      pcm,
      rest.map((i) => segments[i]!),
      profile,
    );
    if (!claimed) continue;
    if (!unclaimed || !validPrint(model, unclaimed)) {
      for (const i of rest) keys[i] = person as string; // too little left to be anyone else
    } else if (sameVoice(model, claimed, unclaimed)) {
      for (const i of mine) keys[i] = own; // one voice: diarization's speaker stands, named (or not) as a whole
    }
  }
}

/** Whether two prints of one recording sound like one speaker. */
function sameVoice(model: string, a: Print, b: Print): boolean {
  if (model !== GAUSS_MODEL) return printSimilarity(model, a, b) >= matchThreshold(model);
  return !soundDistinct(bicStats(a), bicStats(b));
}

/** Diarization's frame statistics (c1..c12) out of a floor print (c1..c19: count, sums, lower triangle). */
function bicStats(print: Print): GaussStats {
  const d = GAUSS_DIMS;
  const g: GaussStats = { n: print[0]!, sum: new Float64Array(BIC_DIMS), outer: new Float64Array(BIC_DIMS * BIC_DIMS) };
  for (let a = 0; a < BIC_DIMS; a++) {
    g.sum[a] = print[1 + a]!;
    for (let b = 0; b <= a; b++) g.outer[a * BIC_DIMS + b] = print[1 + d + (a * (a + 1)) / 2 + b]!;
  }
  return g;
}

/** The speech a print was made of (the floor print counts its 10 ms frames; a neural one: unknown, enough). */
function speechMs(print: Print, model: string): number {
  return model === GAUSS_MODEL ? (print[0] ?? 0) * 10 : Number.POSITIVE_INFINITY;
}
