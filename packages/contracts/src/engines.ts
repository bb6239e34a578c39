import type { Lang } from "./codes.ts";

/**
 * Why a speech engine cannot serve a language, and why a transcription failed, in words a user
 * understands (zod-free). Workers report problems as these keys (their logs keep the details, paths
 * included); the API words them in the request's language. No message carries a server path.
 */

export const ENGINE_PROBLEMS = [
  "no-worker",
  "ffmpeg-missing",
  "binary-missing",
  "model-missing",
  "model-downloading",
  "model-failed",
  "model-invalid",
  "no-language-id",
  "server-missing",
  "server-refused",
  "english-only",
  "unknown",
] as const;
export type EngineProblem = (typeof ENGINE_PROBLEMS)[number];

const NOT_READY: Record<Lang, string> = {
  zh: "{what}暂未就绪，请稍后再试或联系站点管理员",
  en: "{What} is not ready yet. Please try again later or contact the site administrator",
};
/** Nothing to wait for: only the site's administrator can install it (issue 41: "本站暂未安装中文识别"). */
const NOT_INSTALLED: Record<Lang, string> = {
  zh: "本站暂未安装{what}，请联系站点管理员",
  en: "{What} is not installed on this site yet. Please contact the site administrator",
};

/**
 * What users read: plain sentences, naming what is not ready and what they can do (wait, choose
 * another language, ask the site's administrator) — never a variable, a command or a path. What the
 * operator must do is in ENGINE_PROBLEM_FIX, shown by /readyz and the worker's log.
 */
const ENGINE_PROBLEM_TEXT: Record<EngineProblem, Record<Lang, string>> = {
  "no-worker": {
    zh: "{what}服务暂未启动，请稍后再试或联系站点管理员",
    en: "{What} is not running yet. Please try again later or contact the site administrator",
  },
  "ffmpeg-missing": {
    zh: "{what}暂时无法处理音视频文件，请稍后再试或联系站点管理员",
    en: "{What} cannot process audio or video files right now. Please try again later or contact the site administrator",
  },
  "binary-missing": NOT_INSTALLED,
  "model-missing": NOT_INSTALLED,
  "model-downloading": {
    zh: "{what}模型正在下载（{progress}%），下载完成后即可使用，请稍后再试",
    en: "The {what} model is downloading ({progress}%): it can be used as soon as the download finishes, please try again shortly",
  },
  "model-failed": {
    zh: "{what}模型下载未成功，系统会自动重试，请稍后再试或联系站点管理员",
    en: "The {what} model could not be downloaded yet; it is retried automatically. Please try again later or contact the site administrator",
  },
  "model-invalid": NOT_READY,
  "no-language-id": {
    zh: "暂不支持自动识别语种，请选择具体语言",
    en: "Automatic language detection is not available: please choose the language",
  },
  "server-missing": NOT_INSTALLED,
  "server-refused": NOT_READY,
  "english-only": {
    zh: "暂时只能识别英文，请选择英文或联系站点管理员",
    en: "Only English can be recognised for now: please choose English or contact the site administrator",
  },
  unknown: NOT_READY,
};

/**
 * What the operator must do about a problem, in the operator's language: the console (/admin) picks
 * by its language, /readyz and the logs read English (ENGINE_PROBLEM_FIX). Never shown to users.
 */
export const ENGINE_PROBLEM_FIXES: Record<EngineProblem, Record<Lang, string>> = {
  "no-worker": {
    zh: "启动 worker：npm start 会同时运行一个（WORKER_MODE=embedded），docker compose 运行 worker 服务",
    en: "start a worker: npm start runs one (WORKER_MODE=embedded), docker compose runs the worker service",
  },
  "ffmpeg-missing": {
    zh: "安装 ffmpeg（apt-get install ffmpeg），或重新运行 npm ci 使用自带的版本",
    en: "install ffmpeg (apt-get install ffmpeg) or run npm ci again for the bundled copy",
  },
  "binary-missing": {
    zh: "安装 cmake 和 C++ 编译器，然后运行 node scripts/build-whisper.mjs",
    en: "install cmake and a C++ compiler, then run node scripts/build-whisper.mjs",
  },
  "model-missing": {
    zh: "运行 npm run models:fetch，或开启自动下载（ASR_AUTO_FETCH=1）",
    en: "run npm run models:fetch, or turn on automatic download (ASR_AUTO_FETCH=1)",
  },
  "model-downloading": {
    zh: "等待下载完成，进度见 worker 日志",
    en: "wait for the download; its progress is in the worker's log",
  },
  "model-failed": {
    zh: "worker 会自动重试，并依次尝试各个模型下载源（每个源失败的原因见控制台或 /readyz）；把能访问的源排在前面（ASR_MODEL_SOURCES=modelscope,hf-mirror，或镜像 HF_ENDPOINT），或手动运行 npm run models:fetch",
    en: "the worker retries by itself, trying each model source in turn (why each failed: the console or /readyz); put a reachable one first (ASR_MODEL_SOURCES=modelscope,hf-mirror or an HF_ENDPOINT mirror) or run npm run models:fetch",
  },
  "model-invalid": {
    zh: "模型文件损坏或不完整，重新获取：npm run models:fetch",
    en: "fetch the model again: npm run models:fetch",
  },
  "no-language-id": {
    zh: "配置一个能识别语种的引擎（SenseVoice 或多语种 whisper 模型）",
    en: "configure an engine that identifies languages (SenseVoice or a multilingual whisper model)",
  },
  "server-missing": {
    zh: "将 OPENAI_ASR_URL 设为一个语音识别服务的地址",
    en: "set OPENAI_ASR_URL to a speech recognition server",
  },
  "server-refused": {
    zh: "检查 OPENAI_ASR_URL 和 OPENAI_ASR_KEY",
    en: "check OPENAI_ASR_URL and OPENAI_ASR_KEY",
  },
  "english-only": {
    zh: "为中文配置 whisper 模型或语音识别服务（ASR_ENGINE_ZH）",
    en: "configure a whisper model or a speech server for Chinese (ASR_ENGINE_ZH)",
  },
  unknown: { zh: "查看 worker 日志", en: "see the worker's log" },
};

/** What the operator must do about a problem, in English (/readyz and logs). */
export const ENGINE_PROBLEM_FIX = Object.fromEntries(
  Object.entries(ENGINE_PROBLEM_FIXES).map(([problem, fix]) => [problem, fix.en]),
) as Record<EngineProblem, string>;

/** What the operator must do about `problem`, in `lang` (an unknown problem: see the log). */
export function engineProblemFix(problem: string, lang: Lang): string {
  return (ENGINE_PROBLEM_FIXES[problem as EngineProblem] ?? ENGINE_PROBLEM_FIXES.unknown)[lang];
}

/** "中文识别" / "Chinese recognition": what a problem is about, by the transcription language. */
const WHAT: Record<string, Record<Lang, string>> = {
  zh: { zh: "中文识别", en: "Chinese recognition" },
  en: { zh: "英文识别", en: "English recognition" },
  auto: { zh: "语种自动识别", en: "language detection" },
  any: { zh: "语音识别", en: "speech recognition" },
};

/**
 * A problem in words for `lang`; `progress` fills in a download's percentage, `language` (zh, en,
 * auto) says which recognition is not ready.
 */
export function engineProblemMessage(problem: string, lang: Lang, progress = 0, language = "any"): string {
  const text = (ENGINE_PROBLEM_TEXT[problem as EngineProblem] ?? ENGINE_PROBLEM_TEXT.unknown)[lang];
  const what = (WHAT[language] ?? WHAT.any!)[lang];
  return text
    .replace("{progress}", String(progress))
    .replace("{What}", what.charAt(0).toUpperCase() + what.slice(1))
    .replace("{what}", lang === "en" && text.startsWith("The {what} model") ? what.replace(/ recognition$/, "") : what);
}

/**
 * Where a language's engine stands, as users are shown it next to the language choice:
 * ready; downloading its model (with a percentage); missing (nothing installed: the operator must
 * act); failed (a download or the engine failed).
 */
export const ENGINE_STATES = ["ready", "downloading", "missing", "failed"] as const;
export type EngineState = (typeof ENGINE_STATES)[number];

/** The state users see for a problem a worker reported. */
export function engineStateOf(problem: EngineProblem | undefined): EngineState {
  if (problem === undefined) return "ready";
  if (problem === "model-downloading") return "downloading";
  if (
    problem === "model-failed" ||
    problem === "model-invalid" ||
    problem === "server-refused" ||
    problem === "unknown"
  ) {
    return "failed";
  }
  return "missing";
}

/** Why a transcription task failed (stored on the task as errorReason; every failure is refunded). */
export const TRANSCRIPTION_FAILURES = [
  "engine-unavailable",
  "wrong-language",
  "file-missing",
  "unreadable-audio",
  "stuck-running",
  "stuck-queued",
  "job-lost",
  "not-queued",
  "error",
] as const;
export type TranscriptionFailure = (typeof TRANSCRIPTION_FAILURES)[number];

const FAILURE_TEXT: Record<TranscriptionFailure, Record<Lang, string>> = {
  "engine-unavailable": { zh: "语音识别引擎不可用", en: "The speech engine is not available" },
  "wrong-language": {
    zh: "这段录音听起来不是所选的语言",
    en: "This recording does not sound like the language chosen",
  },
  "file-missing": { zh: "音频文件已丢失", en: "The audio file is missing" },
  "unreadable-audio": { zh: "无法解码音频文件", en: "The audio could not be decoded" },
  "stuck-running": { zh: "转写服务长时间无响应", en: "The transcription stopped responding" },
  "stuck-queued": { zh: "排队超过一天仍未开始", en: "It waited in the queue for more than a day" },
  "job-lost": { zh: "转写任务丢失", en: "The transcription job was lost" },
  "not-queued": { zh: "转写任务未能加入队列", en: "The transcription could not be queued" },
  error: { zh: "转写出错", en: "The transcription ran into an error" },
};

const REFUNDED: Record<Lang, string> = {
  zh: "已退还所用时长，请重试",
  en: "the time it used was refunded; please try again",
};
/** After an engine problem's own sentence, which already says what to do. */
const REFUNDED_AFTER: Record<Lang, string> = { zh: "所用时长已退还。", en: " The time it used was refunded." };

/** The stored errorReason of a failure: "engine-unavailable/model-missing" carries the engine problem too. */
export function failureReason(reason: TranscriptionFailure, problem?: EngineProblem): string {
  return problem ? `${reason}/${problem}` : reason;
}

/** Languages a wrong-language refusal can name: what was heard ("other": not the one expected) and what is heard. */
export type HeardLanguage = "zh" | "en" | "ja" | "other";
const LANGUAGE_NAME: Record<HeardLanguage, Record<Lang, string>> = {
  zh: { zh: "中文", en: "Chinese" },
  en: { zh: "英文", en: "English" },
  ja: { zh: "日文", en: "Japanese" },
  other: { zh: "其他语言", en: "another language" },
};

/**
 * The errorReason of speech that does not sound like the language its engine hears (issue 41):
 * "wrong-language/zh:en" — Chinese heard by the English engine; ":switch" when the language heard can be
 * recognised here (the user may choose it). Never saved as a transcript; refunded.
 */
export function wrongLanguageReason(heard: HeardLanguage, expected: "zh" | "en", canSwitch = false): string {
  return `wrong-language/${heard}:${expected}${canSwitch ? ":switch" : ""}`;
}

/**
 * "这段录音听起来是中文，当前只能识别英文" — what was heard (when it can be told) and what the user can do:
 * choose the language heard, where it can be recognised here, or nothing for now.
 */
export function wrongLanguageMessage(heard: string, expected: string, lang: Lang, canSwitch = false): string {
  const name = (l: string) => (LANGUAGE_NAME[l as HeardLanguage] ?? LANGUAGE_NAME.other)[lang];
  const sounds =
    heard === "other" || !(heard in LANGUAGE_NAME)
      ? lang === "zh"
        ? `这段录音听起来不是${name(expected)}`
        : `This recording does not sound like ${name(expected)}`
      : lang === "zh"
        ? `这段录音听起来是${name(heard)}`
        : `This recording sounds like ${name(heard)}`;
  if (canSwitch) {
    return lang === "zh"
      ? `${sounds}，请选择“${name(heard)}”后重新转写`
      : `${sounds}: choose ${name(heard)} and transcribe it again`;
  }
  return lang === "zh"
    ? `${sounds}，当前只能识别${name(expected)}`
    : `${sounds}; only ${name(expected)} can be recognised here for now`;
}

/**
 * A failed task's message in `lang`: why (an engine problem's own sentence, when there is one) and
 * that it was refunded.
 */
export function transcriptionFailureMessage(errorReason: string | null, lang: Lang): string {
  const [reason, problem] = (errorReason ?? "error").split("/");
  const end = lang === "zh" ? "。" : ".";
  if (reason === "wrong-language" && problem) {
    const [heard = "other", expected = "en", advice] = problem.split(":");
    return `${wrongLanguageMessage(heard, expected, lang, advice === "switch")}${end}${REFUNDED_AFTER[lang]}`;
  }
  if (problem) return `${engineProblemMessage(problem, lang)}${end}${REFUNDED_AFTER[lang]}`;
  const why = (FAILURE_TEXT[reason as TranscriptionFailure] ?? FAILURE_TEXT.error)[lang];
  const comma = lang === "zh" ? "，" : "; ";
  return `${why}${comma}${REFUNDED[lang]}${end}`;
}

/** The media tools the API itself runs (runtime/tools.ts); a missing one refuses uploads before anything is stored. */
const MEDIA_TOOL_TEXT: Record<Lang, string> = {
  zh: "服务器暂时无法读取音视频文件，请稍后再试或联系站点管理员",
  en: "this server cannot read audio or video files right now. Please try again later or contact the site administrator",
};

/** A missing media tool in users' words (what the operator must install is in /readyz's `missing`). */
export function mediaToolMissingMessage(_tool: "ffprobe" | "ffmpeg", lang: Lang): string {
  return MEDIA_TOOL_TEXT[lang];
}
