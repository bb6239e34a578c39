import type { Lang } from "./codes.ts";

/**
 * Why a speech engine cannot serve a language, and why a transcription failed, in words a user
 * understands (zod-free). Workers report problems as these keys (their logs keep the details, paths
 * included); the API words them in the request's language. No message carries a server path.
 */

export const ENGINE_PROBLEMS = [
  "no-worker",
  "binary-missing",
  "model-missing",
  "model-downloading",
  "model-failed",
  "no-language-id",
  "server-missing",
  "server-refused",
  "english-only",
  "unknown",
] as const;
export type EngineProblem = (typeof ENGINE_PROBLEMS)[number];

const ENGINE_PROBLEM_TEXT: Record<EngineProblem, Record<Lang, string>> = {
  "no-worker": {
    zh: "转写服务未运行，请联系管理员启动 worker 进程",
    en: "No transcription worker is running: the operator needs to start one",
  },
  "binary-missing": {
    zh: "服务器未编译 whisper.cpp，请联系管理员安装 cmake 与 C++ 编译器后运行 node scripts/build-whisper.mjs",
    en: "whisper.cpp is not built on the server: the operator needs cmake and a C++ compiler, then `node scripts/build-whisper.mjs`",
  },
  "model-missing": {
    zh: "服务器未安装该语言的语音识别模型，请联系管理员运行 npm run models:fetch，或开启自动下载（ASR_AUTO_FETCH）",
    en: "No speech model for this language is installed: the operator can run `npm run models:fetch`, or turn on automatic download (ASR_AUTO_FETCH)",
  },
  "model-downloading": {
    zh: "语音识别模型正在下载（{progress}%），下载完成后即可使用，请稍后再试",
    en: "The speech model is downloading ({progress}%): it can be used as soon as the download finishes, please try again shortly",
  },
  "model-failed": {
    zh: "语音识别模型下载失败，服务器会自动重试；如持续失败，请联系管理员设置 HF_ENDPOINT 镜像或运行 npm run models:fetch",
    en: "The speech model could not be downloaded; the server retries by itself. If it keeps failing, the operator can set an HF_ENDPOINT mirror or run `npm run models:fetch`",
  },
  "no-language-id": {
    zh: "自动识别需要能识别语种的模型（SenseVoice 或 whisper 多语种模型），请选择具体语言",
    en: "Auto-detect needs a model that can identify the language (SenseVoice or a multilingual whisper model): please choose the language",
  },
  "server-missing": {
    zh: "未配置语音识别服务器，请联系管理员设置 OPENAI_ASR_URL",
    en: "No speech recognition server is configured: the operator needs to set OPENAI_ASR_URL",
  },
  "server-refused": {
    zh: "语音识别服务器拒绝了请求，请联系管理员检查 OPENAI_ASR_URL 与 OPENAI_ASR_KEY",
    en: "The speech recognition server refused the request: the operator should check OPENAI_ASR_URL and OPENAI_ASR_KEY",
  },
  "english-only": {
    zh: "当前引擎只能识别英文，请联系管理员为中文配置 whisper 模型或语音识别服务器（ASR_ENGINE_ZH）",
    en: "The configured engine recognises English only: the operator needs a whisper model or a speech server for Chinese (ASR_ENGINE_ZH)",
  },
  unknown: {
    zh: "语音识别引擎不可用，请联系管理员",
    en: "The speech engine is not available: please contact the operator",
  },
};

/** A problem in words for `lang`; `progress` fills in a download's percentage. */
export function engineProblemMessage(problem: string, lang: Lang, progress = 0): string {
  const text = (ENGINE_PROBLEM_TEXT[problem as EngineProblem] ?? ENGINE_PROBLEM_TEXT.unknown)[lang];
  return text.replace("{progress}", String(progress));
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
  if (problem === "model-failed" || problem === "server-refused" || problem === "unknown") return "failed";
  return "missing";
}

/** Why a transcription task failed (stored on the task as errorReason; every failure is refunded). */
export const TRANSCRIPTION_FAILURES = [
  "engine-unavailable",
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

/** The stored errorReason of a failure: "engine-unavailable/model-missing" carries the engine problem too. */
export function failureReason(reason: TranscriptionFailure, problem?: EngineProblem): string {
  return problem ? `${reason}/${problem}` : reason;
}

/** A failed task's message in `lang`: why, the engine problem when there is one, and that it was refunded. */
export function transcriptionFailureMessage(errorReason: string | null, lang: Lang): string {
  const [reason, problem] = (errorReason ?? "error").split("/");
  const why = (FAILURE_TEXT[reason as TranscriptionFailure] ?? FAILURE_TEXT.error)[lang];
  const detail = problem ? engineProblemMessage(problem, lang) : undefined;
  const sep = lang === "zh" ? "：" : ": ";
  const comma = lang === "zh" ? "，" : "; ";
  const end = lang === "zh" ? "。" : ".";
  return detail ? `${why}${sep}${detail}${comma}${REFUNDED[lang]}${end}` : `${why}${comma}${REFUNDED[lang]}${end}`;
}
