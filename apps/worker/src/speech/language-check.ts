import type { HeardLanguage } from "@yuelu/contracts";
import type { SpeechRegion } from "../audio/vad.ts";
import type { AsrEngine, AsrSegment, AudioInput } from "../engines/asr/types.ts";

/**
 * Does the speech sound like English? (issue 41: never save another language's speech as a finished
 * transcript). The English engine (Moonshine) always writes English, whatever it hears: Mandarin came back
 * as "Therefore, Taiwan's payoff rate, 111, 115, 314…". What gives it away is how sure the engine was —
 * the mean log-probability of the tokens it chose —, for Mandarin the numbers it hears in syllables (yi, er,
 * san, si… "2-3-4-5-G4-4-5-9", "four, yeah, five"), and, for other languages, phrases it makes up and
 * repeats ("The first thing that we can do is…"). Measured in bench/language-check.mjs: English speech,
 * clean or degraded, real or synthetic, accented or fast, stays sure and wordy; Mandarin and Japanese do not.
 *
 * The verdict is three-way: a recording the engine is neither sure nor unsure of is given the benefit of
 * the doubt (a wrong refusal costs the user a transcript; a wrong pass costs a bad one they can delete).
 */

export interface EnglishEvidence {
  /** the engine's mean token log-probability over the speech (weighted by each segment's length); 0 = sure */
  confidence: number;
  /** share of the words that are numbers, in digits or words ("10", "2023-2024", "K4", "four") */
  numeric: number;
  /** share of the word triples that already came before: a model guessing repeats itself */
  repeats: number;
  words: number;
  /** speech the evidence covers (ms) */
  speechMs: number;
}

export type EnglishVerdict =
  | { english: "yes" | "unsure"; evidence: EnglishEvidence }
  | { english: "no"; heard: HeardLanguage; evidence: EnglishEvidence };

/** Measured thresholds (bench/language-check.mjs, bench/README.md "Language check"). */
export const LANGUAGE_CHECK = {
  /** below this mean log-probability the engine was guessing, whatever it wrote: not English */
  guessingBelow: -0.9,
  /** below this it was unsure: not English when it also heard mostly numbers */
  unsureBelow: -0.3,
  mostlyNumbers: 0.4,
  /** below this it was quite unsure: not English when a fifth of its words were numbers (Mandarin's syllables) */
  quiteUnsureBelow: -0.4,
  manyNumbers: 0.2,
  /** below this, and repeating its own phrases: made up, not heard */
  madeUpBelow: -0.45,
  madeUpRepeats: 0.2,
  /** too little speech to judge: passed */
  minSpeechMs: 3000,
  minWords: 4,
} as const;

const NUMBER_WORDS = new Set(
  "zero oh one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million".split(
    " ",
  ),
);

/** The evidence in what an engine that reports its confidence heard; undefined when it reports none. */
export function englishEvidence(segments: readonly AsrSegment[]): EnglishEvidence | undefined {
  const heard = segments.filter((s) => s.text.trim() !== "");
  if (heard.length === 0 || heard.some((s) => s.confidence === undefined)) return undefined;
  let weighted = 0;
  let speechMs = 0;
  const words: string[] = [];
  for (const s of heard) {
    const ms = Math.max(1, s.endMs - s.startMs);
    weighted += (s.confidence as number) * ms;
    speechMs += ms;
    words.push(...(s.text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []));
  }
  const numeric = words.filter((w) => /\p{N}/u.test(w) || NUMBER_WORDS.has(w)).length;
  return {
    confidence: weighted / speechMs,
    numeric: words.length ? numeric / words.length : 0,
    repeats: repeatedTriples(words),
    words: words.length,
    speechMs,
  };
}

/** Share of the word triples that occurred before in the same text. */
function repeatedTriples(words: readonly string[]): number {
  const seen = new Set<string>();
  let repeated = 0;
  let total = 0;
  for (let i = 0; i + 2 < words.length; i++) {
    const triple = `${words[i]} ${words[i + 1]} ${words[i + 2]}`;
    total++;
    if (seen.has(triple)) repeated++;
    else seen.add(triple);
  }
  return total ? repeated / total : 0;
}

/**
 * Whether segments the English engine wrote sound like English speech: "no" when it was guessing, or unsure
 * and hearing numbers where Mandarin has syllables (then "zh" was heard), or unsure and repeating itself
 * ("other"); "yes" when it was sure and heard neither; else "unsure", which passes.
 */
export function judgeEnglish(evidence: EnglishEvidence): EnglishVerdict {
  const c = LANGUAGE_CHECK;
  const { confidence, numeric, repeats } = evidence;
  if (evidence.speechMs < c.minSpeechMs) return { english: "unsure", evidence };
  // a few words are too few to judge — unless seconds of speech gave only a number or two ("10.", "104,000")
  const fewNumbers = numeric >= c.mostlyNumbers && confidence < c.madeUpBelow;
  if (evidence.words < c.minWords && !fewNumbers) return { english: "unsure", evidence };
  const numbers =
    (confidence < c.unsureBelow && numeric >= c.mostlyNumbers) ||
    (confidence < c.quiteUnsureBelow && numeric >= c.manyNumbers);
  // numbers over and over ("420 for 200, 420 for 200…") are no English however sure the engine was
  const madeUp = repeats >= c.madeUpRepeats && (confidence < c.madeUpBelow || numeric >= c.mostlyNumbers);
  if (numbers || madeUp || confidence < c.guessingBelow) {
    return { english: "no", heard: numeric >= c.manyNumbers ? "zh" : "other", evidence };
  }
  const clear = confidence >= c.unsureBelow && numeric < c.mostlyNumbers && repeats < c.madeUpRepeats;
  return { english: clear ? "yes" : "unsure", evidence };
}

/** Speech that does not sound like the language its engine hears: the task fails, refunded, saying so. */
export class WrongLanguageError extends Error {
  constructor(
    readonly heard: HeardLanguage,
    readonly expected: "zh" | "en",
    /** the language heard can be recognised here: the user may choose it */
    readonly canSwitch: boolean,
    evidence?: EnglishEvidence,
  ) {
    super(
      `the speech does not sound like ${expected} (heard: ${heard}${evidence ? `; mean log-probability ${evidence.confidence.toFixed(3)}, ${Math.round(evidence.numeric * 100)} % numbers, ${Math.round(evidence.repeats * 100)} % repeated, over ${Math.round(evidence.speechMs / 1000)} s` : ""})`,
    );
    this.name = "WrongLanguageError";
  }
}

/** At most this much speech is given to the English engine to tell whether Chinese-path speech is English. */
const ENGLISH_SAMPLE_MS = 30_000;

export interface LanguageGuardInput {
  /** the language asked for */
  expected: "zh" | "en";
  /** the English engine (its confidence tells English apart), when one is configured */
  english?: AsrEngine | undefined;
  /** whether a language can be recognised here now (its engine is ready) */
  canRecognise: (language: "zh" | "en") => Promise<boolean>;
}

/**
 * The transcription job's guard: throws WrongLanguageError when what was heard does not sound like the
 * language asked for. English asked: the English engine's own evidence in what it heard (judgeEnglish).
 * Chinese asked: the Chinese engine said it heard English (an engine that identifies languages), or the
 * English engine is sure of English on a sample of the speech (at most ENGLISH_SAMPLE_MS). Engines that
 * report no confidence and identify no language cannot be checked: their speech passes.
 */
export async function guardLanguage(
  input: LanguageGuardInput,
  heard: { segments: readonly AsrSegment[]; language?: string | undefined },
  speech: { audio: AudioInput; regions: readonly SpeechRegion[]; signal?: AbortSignal },
): Promise<void> {
  if (input.expected === "en") {
    const evidence = englishEvidence(heard.segments);
    const verdict = evidence ? judgeEnglish(evidence) : undefined;
    if (verdict?.english !== "no") return;
    const canSwitch = verdict.heard === "zh" && (await input.canRecognise("zh"));
    throw new WrongLanguageError(verdict.heard, "en", canSwitch, evidence);
  }
  const said = heard.language?.toLowerCase();
  let english = said?.startsWith("en") ?? false;
  let evidence: EnglishEvidence | undefined;
  if (!english && input.english && heard.segments.length > 0) {
    const sample = sampleRegions(speech.regions, ENGLISH_SAMPLE_MS);
    const result = await input.english.transcribe(speech.audio, {
      language: "en",
      regions: sample,
      ...(speech.signal ? { signal: speech.signal } : {}),
    });
    evidence = englishEvidence(result.segments);
    english = evidence !== undefined && judgeEnglish(evidence).english === "yes";
  }
  if (english) throw new WrongLanguageError("en", "zh", await input.canRecognise("en"), evidence);
}

/** The first regions of the speech, up to `maxMs` of it. */
function sampleRegions(regions: readonly SpeechRegion[], maxMs: number): SpeechRegion[] {
  const out: SpeechRegion[] = [];
  let total = 0;
  for (const r of regions) {
    if (total >= maxMs) break;
    out.push(r);
    total += r.endMs - r.startMs;
  }
  return out;
}
