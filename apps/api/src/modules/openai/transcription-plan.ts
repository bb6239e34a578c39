import {
  type DictationParam,
  describeIssue,
  type Lang,
  MAX_HOT_WORD_LENGTH,
  OPENAI_TRANSCRIPTION_ALIASES,
  type OpenAiTranscriptionFormat,
  StatusCode,
  statusMessage,
  type TranscriptionLanguage,
  ZTranscriptionForm,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "@yuelu/domain";
import { type Config, type LiveWorker, liveWorkers } from "@yuelu/runtime";
import { engineRefusal, languagesOf } from "../dictation/engines.ts";
import { parseDictationParam } from "../dictation/service.ts";
import { OpenAiFailure } from "./errors.ts";
import type { FormFields } from "./held-form.ts";

/** What a /v1/audio/transcriptions form asks for, checked before the upload is kept. */
export interface TranscriptionPlan {
  format: OpenAiTranscriptionFormat;
  /** verbose_json: which timestamps (segments by default) */
  segments: boolean;
  words: boolean;
  /** the web app's dictationParam: language and hot words */
  param: DictationParam;
}

type PlanDeps = { db: Db; config: Pick<Config, "ASR_ENGINE_ZH" | "ASR_ENGINE_EN"> };

/** The form's fields as the schema reads them: one value each, the granularities as a list. */
function formObject(fields: FormFields): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const [name, values] of Object.entries(fields)) {
    if (name === "timestamp_granularities[]" || name === "timestamp_granularities") {
      form.timestamp_granularities = [...((form.timestamp_granularities as string[]) ?? []), ...values];
    } else {
      form[name] = values[0];
    }
  }
  return form;
}

const CHINESE = /^(zh|zho|chi|cmn|chinese|mandarin)([-_].*)?$/i;
const ENGLISH = /^(en|eng|english)([-_].*)?$/i;

/**
 * OpenAI's ISO-639-1 `language` as ours. Left out: 'auto' when the workers can tell languages apart,
 * else the one language they can transcribe (an English-only install still answers scripts that
 * never name the language), else 'auto' (which then says what is missing).
 */
function languageOf(asked: string | undefined, workers: LiveWorker[], lang: Lang): TranscriptionLanguage {
  if (asked && CHINESE.test(asked)) return "zh";
  if (asked && ENGLISH.test(asked)) return "en";
  if (asked && asked.toLowerCase() !== "auto") {
    throw AppError.invalid("language", "supported here: zh, en, or leave it out to detect it");
  }
  const languages = languagesOf(workers, lang);
  if (languages.find((l) => l.value === "auto")?.available) return "auto";
  const ready = languages.filter((l) => l.available && l.value !== "auto");
  return ready.length === 1 ? ready[0]!.value : "auto";
}

/** The engines this install may transcribe with: the configured ones and any a live worker reports. */
export function asrEngines(config: PlanDeps["config"], workers: LiveWorker[]): string[] {
  const reported = workers.flatMap((w) => w.engines.map((e) => e.engine)).filter((e) => e !== "none");
  return [...new Set([config.ASR_ENGINE_ZH, config.ASR_ENGINE_EN, ...reported])];
}

/**
 * `model`: OpenAI's names mean "this install's engine for the language"; an engine's own name must be
 * the one that transcribes the language here (the workers' engines are configured per language).
 */
function checkModel(model: string, language: TranscriptionLanguage, deps: PlanDeps, workers: LiveWorker[]) {
  if ((OPENAI_TRANSCRIPTION_ALIASES as readonly string[]).includes(model)) return;
  if (!asrEngines(deps.config, workers).includes(model)) {
    throw new OpenAiFailure(
      404,
      StatusCode.InvalidParams,
      `The model '${model}' does not exist here: use whisper-1 or one of GET /v1/models.`,
      "model",
    );
  }
  const engineFor = (l: "zh" | "en") => {
    const reported = languagesOf(workers, "en").find((x) => x.value === l)?.engine;
    return reported && reported !== "none"
      ? reported
      : l === "zh"
        ? deps.config.ASR_ENGINE_ZH
        : deps.config.ASR_ENGINE_EN;
  };
  const serving = language === "auto" ? [engineFor("zh"), engineFor("en")] : [engineFor(language)];
  if (!serving.includes(model)) {
    throw AppError.invalid("model", `this install transcribes ${language} with ${serving.join(" / ")}`);
  }
}

/**
 * OpenAI's `prompt` as hot words: the pieces between commas, 、, semicolons or new lines that fit a hot
 * word (1–50 characters); longer ones (a free-text prompt's sentences) have no equivalent and are left out.
 */
export function hotWordsOf(prompt: string | undefined): string[] | undefined {
  const words = (prompt ?? "")
    .split(/[,，、;；\n]+/)
    .map((w) => w.trim())
    .filter((w) => w !== "" && [...w].length <= MAX_HOT_WORD_LENGTH);
  return words.length ? [...new Set(words)] : undefined;
}

/** A 10002 about the dictation parameter renamed to the form field the client sent. */
export function asFormField(error: unknown, field: string): unknown {
  if (error instanceof AppError && error.field?.startsWith("dictationParam"))
    return AppError.invalid(field, error.reason);
  return error;
}

/**
 * Reads and checks the form (the file aside) before anything is kept: the fields, the model, the
 * language, and — exactly as the web app's dictation call does — whether that language's engine is
 * ready on the running workers (engineRefusal: 70001 and nothing charged when it is not).
 */
export async function planTranscription(deps: PlanDeps, fields: FormFields, lang: Lang): Promise<TranscriptionPlan> {
  const parsed = ZTranscriptionForm.safeParse(formObject(fields));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw AppError.invalid(String(issue?.path[0] ?? "body"), issue ? describeIssue(issue, "en") : undefined);
  }
  const form = parsed.data;
  const workers = await liveWorkers(deps.db);
  const language = languageOf(form.language, workers, lang);
  checkModel(form.model, language, deps, workers);
  const refusal = await engineRefusal(deps.db, language, lang);
  if (refusal) {
    const message = statusMessage(StatusCode.EngineUnavailable, lang, { detail: refusal });
    throw new OpenAiFailure(503, StatusCode.EngineUnavailable, message, "language");
  }
  let param: DictationParam;
  try {
    param = parseDictationParam({ language, speakerCount: 0, hotWords: hotWordsOf(form.prompt) });
  } catch (error) {
    throw asFormField(error, "prompt");
  }
  const granularities = form.timestamp_granularities ?? [];
  return {
    format: form.response_format,
    segments: granularities.length === 0 || granularities.includes("segment"),
    words: granularities.includes("word"),
    param,
  };
}
