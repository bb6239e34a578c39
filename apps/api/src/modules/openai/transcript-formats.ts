import type { Segment, TranscriptionJson, VerboseTranscription } from "@yuelu/contracts";
import { MIME, toSrt, toVtt } from "../transcript/exports.ts";
import type { OwnedTranscript } from "../transcript/service.ts";
import type { TranscriptionPlan } from "./transcription-plan.ts";

/** A transcript in the response_format OpenAI's clients asked for. */
export interface RenderedTranscript {
  contentType: string;
  body: string;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** Chinese reads without spaces between segments; other languages with one. */
function fullText(t: OwnedTranscript): string {
  const joiner = t.language === "zh" ? "" : " ";
  return t.segments
    .map((s) => s.text.trim())
    .filter(Boolean)
    .join(joiner);
}

const LANGUAGE_NAMES: Record<string, string> = { zh: "chinese", en: "english" };

interface Word {
  word: string;
  start: number;
  end: number;
}

const WORD_EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * A segment's words with their times, as stored: measured from the audio for every transcript made since
 * issue 45 (the engine's own times, or the worker's aligner: docs/records-api.md "Word times"), without
 * the punctuation they carry. A transcript stored before that, without word times, is estimated — each
 * Han character or space-separated word gets a share of the segment's time by its length.
 */
export function wordsOf(segment: Segment): Word[] {
  if (segment.words?.length) {
    return segment.words
      .map((w) => ({
        word: w.text.replace(WORD_EDGES, "").trim(),
        start: seconds(w.startTime),
        end: seconds(w.endTime),
      }))
      .filter((w) => w.word !== "");
  }
  const tokens = (segment.text.match(/\p{Script=Han}|[^\s\p{Script=Han}]+/gu) ?? [])
    .map((t) => t.replace(WORD_EDGES, ""))
    .filter((t) => t !== "");
  const total = tokens.reduce((sum, t) => sum + [...t].length, 0);
  const span = Math.max(0, segment.endTime - segment.startTime);
  let at = segment.startTime;
  return tokens.map((word) => {
    const length = (span * [...word].length) / total;
    const item = { word, start: seconds(at), end: seconds(at + length) };
    at += length;
    return item;
  });
}

function verbose(t: OwnedTranscript, plan: TranscriptionPlan): VerboseTranscription {
  return {
    task: "transcribe",
    language: LANGUAGE_NAMES[t.language] ?? t.language,
    duration: t.timeLen,
    text: fullText(t),
    usage: { type: "duration", seconds: t.timeLen },
    ...(plan.segments
      ? {
          segments: t.segments.map((s, id) => ({
            id,
            seek: 0,
            start: seconds(s.startTime),
            end: seconds(s.endTime),
            text: s.text,
            // whisper's decoding statistics: our engines report none, OpenAI's neutral values stand in
            tokens: [],
            temperature: 0,
            avg_logprob: 0,
            compression_ratio: 1,
            no_speech_prob: 0,
            speaker: s.spkName,
          })),
        }
      : {}),
    ...(plan.words ? { words: t.segments.flatMap(wordsOf) } : {}),
    yuelu_file_id: t.fileId,
  };
}

/** json / text / srt / vtt / verbose_json, as OpenAI answers them; subtitles come from the transcript exports. */
export function renderTranscript(t: OwnedTranscript, plan: TranscriptionPlan): RenderedTranscript {
  const json = (value: unknown) => ({ contentType: "application/json; charset=utf-8", body: JSON.stringify(value) });
  switch (plan.format) {
    case "json":
      return json({ text: fullText(t), usage: { type: "duration", seconds: t.timeLen } } satisfies TranscriptionJson);
    case "text":
      return { contentType: MIME.txt, body: `${fullText(t)}\n` };
    case "srt":
      return { contentType: MIME.srt, body: toSrt(t.segments, { withSpeaker: false }) };
    case "vtt":
      return { contentType: MIME.vtt, body: toVtt(t.segments, { withSpeaker: false }) };
    case "verbose_json":
      return json(verbose(t, plan));
  }
}
