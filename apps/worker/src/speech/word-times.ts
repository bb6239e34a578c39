import { carryWordTimes, type TimedWord, wordTokens } from "@yuelu/contracts/constants";
import type { Pcm } from "../audio/pcm.ts";
import { SAMPLE_RATE } from "../audio/pcm.ts";
import type { AsrSegment, AsrWord } from "../engines/asr/types.ts";
import { type AlignLanguage, alignWords } from "./align-words.ts";
import { hasHan, toSimplified } from "./chinese.ts";

/**
 * Every word of a finished transcript with its own times, measured from the audio (issue 45): the
 * engine's (SenseVoice's token times, whisper's, Moonshine's aligned words), else — an engine that
 * gave a segment none, a Paraformer without timestamps — the forced aligner's (align-words.ts) on that
 * segment's audio. Segments it cannot time keep none.
 */
export async function timeSegmentWords(
  segments: readonly AsrSegment[],
  pcm: Pcm,
  language: string,
  signal?: AbortSignal,
): Promise<(AsrWord[] | undefined)[]> {
  const out: (AsrWord[] | undefined)[] = [];
  for (const s of segments) {
    signal?.throwIfAborted();
    if (s.words?.length) {
      out.push(s.words);
      continue;
    }
    const lang: AlignLanguage | undefined =
      language === "zh" || language === "en"
        ? language
        : hasHan(s.text)
          ? "zh"
          : language === "auto"
            ? "en"
            : undefined;
    const words = wordTokens(s.text);
    if (!lang || words.length === 0) {
      out.push(undefined);
      continue;
    }
    const from = Math.max(0, Math.floor((s.startMs * SAMPLE_RATE) / 1000));
    const times = await alignWords(pcm.slice(from, Math.ceil((s.endMs * SAMPLE_RATE) / 1000)), words, lang, signal);
    out.push(
      times?.map((t, i) => ({
        text: words[i]!,
        startMs: s.startMs + t.startMs,
        endMs: Math.min(s.endMs, s.startMs + t.endMs),
      })),
    );
  }
  return out;
}

/**
 * The stored words of a segment whose stored text is `text` (punctuated, in simplified characters):
 * the timed words carried onto it (a word the punctuation step left alone keeps its times).
 */
export function storedWords(
  words: readonly AsrWord[] | undefined,
  text: string,
  span: { startTime: number; endTime: number },
): TimedWord[] | undefined {
  if (!words?.length) return undefined;
  const before = words.map((w) => ({
    text: hasHan(w.text) ? toSimplified(w.text) : w.text,
    startTime: Math.round(w.startMs),
    endTime: Math.round(w.endMs),
  }));
  const carried = carryWordTimes(before, text, span);
  return carried.length ? carried : undefined;
}
