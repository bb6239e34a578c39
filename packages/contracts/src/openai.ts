import { z } from "zod";
import { zNumberIn, zTtsText } from "./tts.ts";
import { TTS_SPEED } from "./tts-constants.ts";

/**
 * The OpenAI-compatible endpoints under /v1 (docs/integrators.md): scripts written for OpenAI's audio
 * API work unchanged against Yuelu. Field names are OpenAI's, not the spec's.
 */

/** Model names OpenAI's clients send for transcription; each means "the install's engine for the language". */
export const OPENAI_TRANSCRIPTION_ALIASES = ["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"] as const;
/** Model names OpenAI's clients send for speech; the voice decides the engine. */
export const OPENAI_SPEECH_ALIASES = ["tts-1", "tts-1-hd", "gpt-4o-mini-tts"] as const;

export const OPENAI_TRANSCRIPTION_FORMATS = ["json", "text", "srt", "vtt", "verbose_json"] as const;
export type OpenAiTranscriptionFormat = (typeof OPENAI_TRANSCRIPTION_FORMATS)[number];

/** mp3 and wav are what the TTS pipeline makes; the others are converted from its wav with ffmpeg. */
export const OPENAI_SPEECH_FORMATS = ["mp3", "wav", "opus", "flac", "aac", "pcm"] as const;
export type OpenAiSpeechFormat = (typeof OPENAI_SPEECH_FORMATS)[number];

/**
 * OpenAI's voice names → the seeded library voices (prisma/src/seed/voices.ts, fixed promptIds), one per
 * language: the text's language picks (Chinese when ≥ 20 % of its letters are Han). Chosen by likeness:
 * alloy is each language's default voice; deep, bright, calm and storytelling voices go to theirs.
 */
export const OPENAI_VOICES = {
  alloy: { zh: 1, en: 8 }, // 云峰 Yunfeng · Sarah (natural)
  echo: { zh: 1, en: 11 }, // 云峰 · Mike
  fable: { zh: 3, en: 9 }, // 陈伯 Uncle Chen · Nora (storyteller)
  onyx: { zh: 3, en: 10 }, // 陈伯 · David (deep)
  nova: { zh: 2, en: 12 }, // 晓雪 Xiaoxue · Emma (British)
  shimmer: { zh: 5, en: 12 }, // 慧姐 Sister Hui · Emma
  ash: { zh: 1, en: 11 }, // 云峰 · Mike
  coral: { zh: 2, en: 8 }, // 晓雪 · Sarah
  sage: { zh: 5, en: 10 }, // 慧姐 · David
  ballad: { zh: 3, en: 13 }, // 陈伯 · Grandpa Joe
  verse: { zh: 6, en: 11 }, // 小智 Xiaozhi · Mike
  marin: { zh: 2, en: 8 }, // 晓雪 · Sarah
  cedar: { zh: 1, en: 10 }, // 云峰 · David
} as const satisfies Record<string, { zh: number; en: number }>;
export type OpenAiVoiceName = keyof typeof OPENAI_VOICES;

/** OpenAI's error body: every /v1 failure. `code` is the Yuelu status code (the /voice_yuelu catalogue) as a string. */
export const ZOpenAiError = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiError = z.infer<typeof ZOpenAiError>;

const zFormText = (max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "invalid value") })
    .max(max, `at most ${max} characters`);

/**
 * The form fields of POST /v1/audio/transcriptions (the file part aside), as the multipart body brings
 * them: strings, and `timestamp_granularities[]` once per value. Fields OpenAI has that change nothing
 * here (temperature, include[], chunking_strategy) are accepted and ignored.
 */
export const ZTranscriptionForm = z.object({
  model: zFormText(100).trim().min(1, "is required"),
  language: zFormText(20).trim().optional(),
  /** words and names to favour, separated by commas or new lines: they join the user's hot words */
  prompt: zFormText(5000).optional(),
  response_format: z.enum(OPENAI_TRANSCRIPTION_FORMATS).optional().default("json"),
  timestamp_granularities: z
    .array(z.enum(["word", "segment"]))
    .max(2)
    .optional(),
  temperature: z.coerce.number().min(0).max(1).optional(),
  stream: z
    .enum(["false", "true"])
    .optional()
    .refine((v) => v !== "true", "streaming is not supported: leave stream out"),
});
export type TranscriptionForm = z.infer<typeof ZTranscriptionForm>;

/** The same form as the OpenAPI document shows it (with its file part). */
export const ZTranscriptionFormDoc = ZTranscriptionForm.extend({
  file: z.string().meta({ format: "binary", description: "the recording (any upload format of the web app)" }),
});

export const ZTranscriptionJson = z.object({
  text: z.string(),
  /** what the transcription was charged: its length in seconds */
  usage: z.object({ type: z.literal("duration"), seconds: z.number().int() }),
});
export type TranscriptionJson = z.infer<typeof ZTranscriptionJson>;

export const ZTranscriptionWord = z.object({ word: z.string(), start: z.number(), end: z.number() });
export const ZTranscriptionSegment = z.object({
  id: z.number().int(),
  seek: z.number(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  tokens: z.array(z.number()),
  temperature: z.number(),
  avg_logprob: z.number(),
  compression_ratio: z.number(),
  no_speech_prob: z.number(),
  /** ours: the speaker label of the transcript */
  speaker: z.string(),
});
export const ZVerboseTranscription = ZTranscriptionJson.extend({
  task: z.literal("transcribe"),
  language: z.string(),
  duration: z.number(),
  segments: z.array(ZTranscriptionSegment).optional(),
  words: z.array(ZTranscriptionWord).optional(),
  /** ours: the record in the user's account (/voice_yuelu calls take it as fileId) */
  yuelu_file_id: z.number().int(),
});
export type VerboseTranscription = z.infer<typeof ZVerboseTranscription>;

/** POST /v1/audio/speech. `instructions` (gpt-4o-mini-tts) is accepted and ignored. */
export const ZSpeechBody = z.object({
  model: zFormText(100).trim().min(1, "is required"),
  input: zTtsText,
  /** an OpenAI voice name, a library voice (promptId or name) or one of the user's voices ("my:<id>" or its name) */
  voice: zFormText(100).trim().min(1, "is required"),
  response_format: z.enum(OPENAI_SPEECH_FORMATS).optional().default("mp3"),
  speed: zNumberIn(TTS_SPEED),
  instructions: zFormText(5000).optional(),
  stream_format: z
    .enum(["audio", "sse"])
    .optional()
    .refine((v) => v !== "sse", "only audio: server-sent events are not supported"),
});
export type SpeechBody = z.infer<typeof ZSpeechBody>;

export const ZOpenAiModel = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});
export type OpenAiModel = z.infer<typeof ZOpenAiModel>;
export const ZOpenAiModelList = z.object({ object: z.literal("list"), data: z.array(ZOpenAiModel) });
export type OpenAiModelList = z.infer<typeof ZOpenAiModelList>;
export const ZModelParams = z.object({ model: z.string().max(100) });
