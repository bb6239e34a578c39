import type { Lang } from "./codes.ts";
import { MAX_TRANSCRIBE_SECONDS, MAX_UPLOAD_BYTES, MAX_UPLOAD_SECONDS, UPLOAD_EXTENSIONS } from "./limits.ts";
import { MELODY_MAX_NOTES, MIDI_MAX_BYTES, SONG_MAX_SECONDS, SONG_MIN_SECONDS } from "./voice-constants.ts";

/**
 * The server's words that name a limit, beside the status codes' catalogue (codes.ts). Every number
 * in them is read from the limit itself (limits.ts, voice-constants.ts), so changing a limit changes
 * what users are told. Zod-free: exported through `@yuelu/contracts/constants` too.
 */

type Words = Record<Lang, string>;

/** Whole units as written in a sentence: 3 hours, 1 GB (sizes binary, as the spec counts 1 GB). */
const hours = (seconds: number) => seconds / 3600;
const minutes = (seconds: number) => seconds / 60;
const gigabytes = (bytes: number) => bytes / 1024 ** 3;
const megabytes = (bytes: number) => bytes / 1024 ** 2;

/** 50001: a recording longer than one transcription may be (spec §8). */
export const AUDIO_TOO_LONG_WORDS: Words = {
  zh: `仅支持${hours(MAX_TRANSCRIBE_SECONDS)}小时以内的音频`,
  en: `Only audio shorter than ${hours(MAX_TRANSCRIBE_SECONDS)} hours is supported.`,
};

/** Why an upload was refused (20004, after "File upload failed: "), by the refusal's name. */
export const UPLOAD_REFUSAL_WORDS = {
  extension: {
    zh: `仅支持 ${UPLOAD_EXTENSIONS.join("、")} 格式`,
    en: `only ${UPLOAD_EXTENSIONS.join(", ")} files are accepted`,
  },
  content: { zh: "文件内容不是音频或视频", en: "the file's content is not audio or video" },
  unreadable: { zh: "无法读取该音视频文件", en: "the file could not be read as audio or video" },
  no_audio: { zh: "文件中没有音频轨道", en: "the file has no audio track" },
  too_long: {
    zh: `音视频时长超过${hours(MAX_UPLOAD_SECONDS)}小时`,
    en: `it is longer than ${hours(MAX_UPLOAD_SECONDS)} hours`,
  },
  length_mismatch: {
    zh: "文件头标注的时长与实际音频不符，文件可能已损坏或被修改",
    en: "the length written in the file's header does not match its audio; the file may be damaged or edited",
  },
  too_large: {
    zh: `文件超过${gigabytes(MAX_UPLOAD_BYTES)}GB`,
    en: `the file is larger than ${gigabytes(MAX_UPLOAD_BYTES)} GB`,
  },
  empty: { zh: "文件为空", en: "the file is empty" },
  interrupted: { zh: "上传中断", en: "the upload was interrupted" },
} as const satisfies Record<string, Words>;

/** Why a song or a melody for the voice pages was refused (docs/voice.md). */
export const SONG_REFUSAL_WORDS = {
  tooLong: {
    zh: `歌曲时长超过 ${minutes(SONG_MAX_SECONDS)} 分钟`,
    en: `the song is longer than ${minutes(SONG_MAX_SECONDS)} minutes`,
  },
  tooShort: {
    zh: `歌曲太短（至少 ${SONG_MIN_SECONDS} 秒）`,
    en: `the song is too short (at least ${SONG_MIN_SECONDS} seconds)`,
  },
  midiTooLarge: {
    zh: `MIDI 文件超过 ${megabytes(MIDI_MAX_BYTES)}MB`,
    en: `the MIDI file is larger than ${megabytes(MIDI_MAX_BYTES)} MB`,
  },
  melodyTooLong: {
    zh: `MIDI 旋律太长（最多 ${MELODY_MAX_NOTES} 个音符、${minutes(SONG_MAX_SECONDS)} 分钟）`,
    en: `the melody is too long (at most ${MELODY_MAX_NOTES} notes and ${minutes(SONG_MAX_SECONDS)} minutes)`,
  },
} as const satisfies Record<string, Words>;

/**
 * A 10002 reason for an image over `maxBytes`, in English: the validation catalogue (validation.ts)
 * words it in the request's language.
 */
export const imageTooLargeReason = (maxBytes: number) => `each image at most ${megabytes(maxBytes)} MB`;

/** The text of the SMS that carries a sign-in code valid for `ttlSeconds`. */
export const smsCodeText = (code: string, ttlSeconds: number) =>
  `【悦录】验证码 ${code}，${minutes(ttlSeconds)}分钟内有效。`;
