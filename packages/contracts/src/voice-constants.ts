import type { Lang } from "./codes.ts";

/**
 * My voice, AI singing and song voice conversion (docs/voice.md), zod-free: limits and the words for
 * why a sample or a work was refused. The web imports these through `@yuelu/contracts/constants`.
 */

/** A voice sample: 10–120 seconds of one person speaking. */
export const MY_VOICE_MIN_SECONDS = 10;
export const MY_VOICE_MAX_SECONDS = 120;
/** How many voices one user may keep (counted before a new one is accepted). */
export const MY_VOICE_MAX_COUNT = 5;
/** A voice's name and a work's title. */
export const VOICE_NAME_MAX = 20;
export const VOICE_WORK_TITLE_MAX = 50;
/** Lyrics of one song (characters). */
export const LYRICS_MAX = 600;
/** A melody: at most this many notes and this long (an uploaded MIDI file, after key and tempo). */
export const MELODY_MAX_NOTES = 600;
export const SONG_MAX_SECONDS = 600;
/** A song to convert is at least this long (seconds). */
export const SONG_MIN_SECONDS = 3;
/** A song to convert: the records feature's formats, at most 10 minutes and 100 MB. */
export const SONG_MAX_BYTES = 100 * 1024 * 1024;
export const MIDI_MAX_BYTES = 1024 * 1024;
/** Key (semitones) and tempo (a multiplier) of a sung song; semitones of a converted one. */
export const SING_KEY = { min: -12, max: 12, default: 0 } as const;
export const SING_TEMPO = { min: 0.5, max: 2, default: 1 } as const;
export const CONVERT_SEMITONES = { min: -12, max: 12, default: 0 } as const;
/** How often the web polls progress while something is queued or running (ms). */
export const VOICE_POLL_MS = 1500;
/** ids per progress or delete call */
export const VOICE_BATCH_MAX = 50;

export const VOICE_WORK_KINDS = ["sing", "convert"] as const;
export type VoiceWorkKind = (typeof VOICE_WORK_KINDS)[number];

/**
 * How a personal voice is made: "match" (offline signal processing: a library voice moved toward the
 * sample's pitch, formants and rate — never called a clone) or "clone" (a configured zero-shot engine).
 */
export const MY_VOICE_METHODS = ["match", "clone"] as const;
export type MyVoiceMethod = (typeof MY_VOICE_METHODS)[number];

/** What a sample can be refused for (worker analysis; the first two also at upload). */
export const SAMPLE_PROBLEMS = [
  "too-short",
  "too-long",
  "too-quiet",
  "clipped",
  "too-noisy",
  "no-speech",
  "several-speakers",
] as const;
export type SampleProblem = (typeof SAMPLE_PROBLEMS)[number];

const SAMPLE_PROBLEM_WORDS: Record<SampleProblem, Record<Lang, string>> = {
  "too-short": {
    zh: `录音太短，请录制至少 ${MY_VOICE_MIN_SECONDS} 秒的语音`,
    en: `the recording is too short: record at least ${MY_VOICE_MIN_SECONDS} seconds of speech`,
  },
  "too-long": {
    zh: `录音太长，最多 ${MY_VOICE_MAX_SECONDS} 秒`,
    en: `the recording is too long: at most ${MY_VOICE_MAX_SECONDS} seconds`,
  },
  "too-quiet": {
    zh: "声音太小，请靠近麦克风再录一次",
    en: "it is too quiet: move closer to the microphone and record again",
  },
  clipped: {
    zh: "声音过大出现削波失真，请离麦克风远一点",
    en: "it is clipped (too loud): move a little away from the microphone",
  },
  "too-noisy": {
    zh: "背景噪音太大，请在安静的地方录制",
    en: "there is too much background noise: record somewhere quiet",
  },
  "no-speech": { zh: "没有检测到说话声", en: "no speech was found in it" },
  "several-speakers": {
    zh: "检测到不止一个人在说话，请只录制您自己的声音",
    en: "more than one person seems to be speaking: record only your own voice",
  },
};

export function sampleProblemText(problem: string, lang: Lang): string {
  return (SAMPLE_PROBLEM_WORDS as Record<string, Record<Lang, string>>)[problem]?.[lang] ?? problem;
}

/** Why a work or a voice failed in the worker (errorReason), worded for users. */
export const VOICE_FAILURES = {
  "engine-unavailable": { zh: "服务器缺少所需的语音组件", en: "the server lacks a speech component this needs" },
  "unreadable-audio": { zh: "无法读取音频", en: "the audio could not be read" },
  "no-vocals": { zh: "没有找到人声（单声道或纯音乐）", en: "no vocals were found (mono or instrumental)" },
  "remote-failed": { zh: "外部语音服务出错", en: "the external voice service failed" },
  "voice-gone": { zh: "所选声音已被删除", en: "the chosen voice was deleted" },
  failed: { zh: "处理出错，请重试", en: "processing failed, please try again" },
} as const satisfies Record<string, Record<Lang, string>>;
export type VoiceFailure = keyof typeof VOICE_FAILURES;

export function voiceFailureText(reason: string, lang: Lang): string {
  if ((SAMPLE_PROBLEMS as readonly string[]).includes(reason)) return sampleProblemText(reason, lang);
  return (VOICE_FAILURES as Record<string, Record<Lang, string>>)[reason]?.[lang] ?? VOICE_FAILURES.failed[lang];
}

/** Daily works (sung songs, converted songs, trained voices) per user; members get more. */
export const VOICE_DAILY_WORKS = 10;
export const VOICE_DAILY_WORKS_MEMBER = 50;
