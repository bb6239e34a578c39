import type { Lang } from "./codes.ts";

/**
 * Text to speech and the voice library (docs/tts.md), zod-free: limits, the library's filter values
 * and their labels, the engines, and why an engine or a task failed in words users understand. The
 * web app imports these through `@yuelu/contracts/constants`; the schemas are in tts.ts.
 */

/** Most characters (code points, after trimming) one start_tts may carry. */
export const TTS_MAX_CHARS = 5000;
/** A work's title: 1–50 characters (default: the start of its text). */
export const TTS_TITLE_MAX = 50;
/** speed: a multiplier of the voice's own rate. */
export const TTS_SPEED = { min: 0.5, max: 2, default: 1 } as const;
/** pitch: semitones up (+) or down (−) from the voice's own pitch. */
export const TTS_PITCH = { min: -12, max: 12, default: 0 } as const;
/** volume: a multiplier of the normalised loudness (1 = every voice equally loud). */
export const TTS_VOLUME = { min: 0.1, max: 2, default: 1 } as const;
export const TTS_FORMATS = ["mp3", "wav"] as const;
export type TtsFormat = (typeof TTS_FORMATS)[number];
/** How many task ids one get_progress or delete call takes. */
export const TTS_BATCH_MAX = 100;
/** How often the web should poll get_progress while a task is queued or running (ms). */
export const TTS_POLL_MS = 1000;

export const TTS_LANGUAGES = ["zh", "en"] as const;
export type TtsLanguage = (typeof TTS_LANGUAGES)[number];

/**
 * The engines (ARCHITECTURE §7): espeak-ng (zh + en) and festival (en, HTS voice) are offline on every
 * install; openai-compatible (`POST /v1/audio/speech`) and gpt-sovits (reference audio + text) when
 * their server is configured.
 */
export const TTS_ENGINES = ["espeak-ng", "festival", "openai-compatible", "gpt-sovits"] as const;
export type TtsEngineName = (typeof TTS_ENGINES)[number];

export const VOICE_GENDERS = ["male", "female", "neutral"] as const;
export const VOICE_AGE_GROUPS = ["child", "young", "adult", "senior"] as const;
export const VOICE_STYLES = [
  "news",
  "natural",
  "gentle",
  "story",
  "lively",
  "calm",
  "robot",
  "whisper",
  "cloned",
] as const;
export type VoiceGender = (typeof VOICE_GENDERS)[number];
export type VoiceAgeGroup = (typeof VOICE_AGE_GROUPS)[number];
export type VoiceStyle = (typeof VOICE_STYLES)[number];

/** Labels of the library's filter values (select_options answers them in the request's language). */
export const VOICE_FILTER_LABELS: Record<string, Record<Lang, string>> = {
  zh: { zh: "中文", en: "Chinese" },
  en: { zh: "英文", en: "English" },
  male: { zh: "男声", en: "Male" },
  female: { zh: "女声", en: "Female" },
  neutral: { zh: "中性", en: "Neutral" },
  child: { zh: "童声", en: "Child" },
  young: { zh: "青年", en: "Young" },
  adult: { zh: "成年", en: "Adult" },
  senior: { zh: "老年", en: "Senior" },
  news: { zh: "新闻播报", en: "News" },
  natural: { zh: "自然", en: "Natural" },
  gentle: { zh: "温柔", en: "Gentle" },
  story: { zh: "讲故事", en: "Storytelling" },
  lively: { zh: "活泼", en: "Lively" },
  calm: { zh: "沉稳", en: "Calm" },
  robot: { zh: "机器人", en: "Robot" },
  // not "Whisper": users read no word that is also an engine's name
  whisper: { zh: "耳语", en: "Hushed" },
  cloned: { zh: "克隆音色", en: "Cloned" },
  // engines by what they sound like, never by the synthesiser's name (issue 41); the values stay the engine ids
  "espeak-ng": { zh: "标准音质（离线）", en: "Standard (offline)" },
  festival: { zh: "清晰音质（离线）", en: "Clear (offline)" },
  "openai-compatible": { zh: "神经网络语音", en: "Natural (server)" },
  "gpt-sovits": { zh: "克隆音色", en: "Cloned" },
};

/** A filter value's label in `lang` (the value itself when unknown). */
export function voiceFilterLabel(value: string, lang: Lang): string {
  return VOICE_FILTER_LABELS[value]?.[lang] ?? value;
}

/** Why a TTS engine cannot speak here. Workers report these keys; the API words them (no paths). */
export const TTS_ENGINE_PROBLEMS = [
  "no-worker",
  "espeak-missing",
  "espeak-voice-missing",
  "festival-missing",
  "festival-voice-missing",
  "ffmpeg-missing",
  "english-only",
  "openai-missing",
  "gptsovits-missing",
  "gptsovits-reference-missing",
  "server-refused",
  "unknown",
] as const;
export type TtsEngineProblem = (typeof TTS_ENGINE_PROBLEMS)[number];

const VOICE_NOT_READY: Record<Lang, string> = {
  zh: "该音色暂时无法使用，请换一个音色、稍后再试或联系站点管理员",
  en: "This voice cannot be used right now: choose another voice, try again later or contact the site administrator",
};

/**
 * What users read: plain sentences (what they can do), never a variable, a command or a path; what
 * the operator must do is in TTS_PROBLEM_FIX, shown by /readyz and the worker's log.
 */
const TTS_PROBLEM_TEXT: Record<TtsEngineProblem, Record<Lang, string>> = {
  "no-worker": {
    zh: "语音合成服务暂未启动，请稍后再试或联系站点管理员",
    en: "Speech synthesis is not running yet. Please try again later or contact the site administrator",
  },
  "espeak-missing": VOICE_NOT_READY,
  "espeak-voice-missing": VOICE_NOT_READY,
  "festival-missing": VOICE_NOT_READY,
  "festival-voice-missing": VOICE_NOT_READY,
  "ffmpeg-missing": VOICE_NOT_READY,
  "english-only": {
    zh: "该音色只能朗读英文，请为中文换一个音色",
    en: "This voice reads English only: choose another voice for Chinese text",
  },
  "openai-missing": VOICE_NOT_READY,
  "gptsovits-missing": VOICE_NOT_READY,
  "gptsovits-reference-missing": VOICE_NOT_READY,
  "server-refused": VOICE_NOT_READY,
  unknown: VOICE_NOT_READY,
};

/**
 * What the operator must do about a problem, in the operator's language: the console (/admin) picks
 * by its language, /readyz and the logs read English (TTS_PROBLEM_FIX). Never shown to users.
 */
export const TTS_PROBLEM_FIXES: Record<TtsEngineProblem, Record<Lang, string>> = {
  "no-worker": {
    zh: "启动 worker：npm start 会同时运行一个（WORKER_MODE=embedded），docker compose 运行 worker 服务",
    en: "start a worker: npm start runs one (WORKER_MODE=embedded), docker compose runs the worker service",
  },
  "espeak-missing": {
    zh: "apt-get install espeak-ng（或重新运行 npm ci 使用自带的 WebAssembly 版本）",
    en: "apt-get install espeak-ng (or run npm ci again for the bundled WebAssembly copy)",
  },
  "espeak-voice-missing": { zh: "apt-get install espeak-ng-data", en: "apt-get install espeak-ng-data" },
  "festival-missing": {
    zh: "apt-get install festival festvox-us-slt-hts",
    en: "apt-get install festival festvox-us-slt-hts",
  },
  "festival-voice-missing": { zh: "apt-get install festvox-us-slt-hts", en: "apt-get install festvox-us-slt-hts" },
  "ffmpeg-missing": {
    zh: "安装 ffmpeg（apt-get install ffmpeg），或重新运行 npm ci 使用自带的版本",
    en: "install ffmpeg (apt-get install ffmpeg) or run npm ci again for the bundled copy",
  },
  "english-only": {
    zh: "为中文设置另一个引擎：TTS_ENGINE_ZH=espeak-ng",
    en: "set another engine for Chinese: TTS_ENGINE_ZH=espeak-ng",
  },
  "openai-missing": {
    zh: "将 OPENAI_TTS_URL 设为一个神经网络语音合成服务的地址",
    en: "set OPENAI_TTS_URL to a neural speech server",
  },
  "gptsovits-missing": {
    zh: "将 GPTSOVITS_URL 设为一个 GPT-SoVITS 服务的地址",
    en: "set GPTSOVITS_URL to a GPT-SoVITS server",
  },
  "gptsovits-reference-missing": {
    zh: "设置 GPTSOVITS_REF_AUDIO 和 GPTSOVITS_PROMPT_TEXT",
    en: "set GPTSOVITS_REF_AUDIO and GPTSOVITS_PROMPT_TEXT",
  },
  "server-refused": {
    zh: "检查语音合成服务的地址和密钥（OPENAI_TTS_URL、OPENAI_TTS_KEY、GPTSOVITS_URL）",
    en: "check the speech server's address and key (OPENAI_TTS_URL, OPENAI_TTS_KEY, GPTSOVITS_URL)",
  },
  unknown: { zh: "查看 worker 日志", en: "see the worker's log" },
};

/** What the operator must do about a problem, in English (/readyz and logs). */
export const TTS_PROBLEM_FIX = Object.fromEntries(
  Object.entries(TTS_PROBLEM_FIXES).map(([problem, fix]) => [problem, fix.en]),
) as Record<TtsEngineProblem, string>;

/** What the operator must do about a TTS `problem`, in `lang` (an unknown problem: see the log). */
export function ttsProblemFix(problem: string, lang: Lang): string {
  return (TTS_PROBLEM_FIXES[problem as TtsEngineProblem] ?? TTS_PROBLEM_FIXES.unknown)[lang];
}

/** A TTS engine problem in words for `lang`. */
export function ttsProblemMessage(problem: string, lang: Lang): string {
  return (TTS_PROBLEM_TEXT[problem as TtsEngineProblem] ?? TTS_PROBLEM_TEXT.unknown)[lang];
}

/** Why a synthesis (or a voice sample) failed: stored on the task as errorReason ("engine-unavailable/festival-missing"). */
export const TTS_FAILURES = [
  "engine-unavailable",
  "nothing-to-say",
  "stuck-running",
  "stuck-queued",
  "job-lost",
  "not-queued",
  "timeout",
  "error",
] as const;
export type TtsFailure = (typeof TTS_FAILURES)[number];

const TTS_FAILURE_TEXT: Record<TtsFailure, Record<Lang, string>> = {
  "engine-unavailable": { zh: "语音合成引擎不可用", en: "The speech engine is not available" },
  "nothing-to-say": { zh: "文本中没有可朗读的内容", en: "The text holds nothing that can be read aloud" },
  "stuck-running": { zh: "语音合成长时间无响应", en: "The synthesis stopped responding" },
  "stuck-queued": { zh: "排队超过一天仍未开始", en: "It waited in the queue for more than a day" },
  "job-lost": { zh: "语音合成任务丢失", en: "The synthesis job was lost" },
  "not-queued": { zh: "语音合成任务未能加入队列", en: "The synthesis could not be queued" },
  timeout: { zh: "语音合成超时", en: "The synthesis took too long" },
  error: { zh: "语音合成出错", en: "The synthesis ran into an error" },
};

const TTS_REFUNDED: Record<Lang, string> = {
  zh: "已退还所用字数，请重试",
  en: "the characters it used were refunded; please try again",
};

/** After an engine problem's own sentence, which already says what to do. */
const TTS_REFUNDED_AFTER: Record<Lang, string> = {
  zh: "所用字数已退还。",
  en: " The characters it used were refunded.",
};

/** The stored errorReason: the failure, with the engine problem after a slash when there is one. */
export function ttsFailureReason(reason: TtsFailure, problem?: TtsEngineProblem): string {
  return problem ? `${reason}/${problem}` : reason;
}

/**
 * A failed task's message in `lang`: why (an engine problem's own sentence, when there is one) and
 * that it was refunded.
 */
export function ttsFailureMessage(
  errorReason: string | null,
  lang: Lang,
  options: { refunded?: boolean } = {},
): string {
  const [reason, problem] = (errorReason ?? "error").split("/");
  const end = lang === "zh" ? "。" : ".";
  if (problem) {
    const refunded = options.refunded === false ? "" : TTS_REFUNDED_AFTER[lang];
    return `${ttsProblemMessage(problem, lang)}${end}${refunded}`;
  }
  const why = (TTS_FAILURE_TEXT[reason as TtsFailure] ?? TTS_FAILURE_TEXT.error)[lang];
  const comma = lang === "zh" ? "，" : "; ";
  const refunded = options.refunded === false ? "" : `${comma}${TTS_REFUNDED[lang]}`;
  return `${why}${refunded}${end}`;
}

/** Characters as the limit and the quota count them: code points, so an emoji is one, like a Han character. */
export function ttsCharCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
