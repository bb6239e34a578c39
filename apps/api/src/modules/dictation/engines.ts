import {
  type DictationLanguage,
  type EngineProblem,
  engineProblemMessage,
  engineStateOf,
  type Lang,
  TRANSCRIPTION_LANGUAGES,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type LiveWorker, liveWorkers } from "@yuelu/runtime";

/** What the running workers can transcribe (their heartbeats, runtime/worker-registry.ts). */

const LANGUAGE_LABELS = {
  zh: { zh: "中文", en: "Chinese" },
  en: { zh: "英文", en: "English" },
  auto: { zh: "自动识别", en: "Auto-detect" },
} as const;

export type LanguageAvailability = DictationLanguage;

/**
 * One entry per language: available when some live worker reports an engine ready for it (that
 * worker's engine is named); otherwise why not, in `lang` — "no worker is running" when none is.
 * Of several workers not ready, the one furthest along is shown (downloading before failed/missing).
 */
export function languagesOf(workers: LiveWorker[], lang: Lang): LanguageAvailability[] {
  return TRANSCRIPTION_LANGUAGES.map((value) => {
    const reports = workers.flatMap((w) => w.engines.filter((e) => e.language === value));
    const ready = reports.find((r) => r.available);
    const label = LANGUAGE_LABELS[value][lang];
    if (ready) return { value, label, available: true, state: "ready", engine: ready.engine };
    const first =
      reports.find((r) => r.problem === "model-downloading") ??
      reports.find((r) => r.problem === "model-failed") ??
      reports[0];
    const problem = (first ? (first.problem ?? "unknown") : "no-worker") as EngineProblem;
    const progress =
      problem === "model-downloading" ? Math.min(100, Math.max(0, Math.floor(first?.progress ?? 0))) : undefined;
    return {
      value,
      label,
      available: false,
      state: engineStateOf(problem),
      ...(progress !== undefined ? { progress } : {}),
      engine: first?.engine ?? "none",
      missing: engineProblemMessage(problem, lang, progress, value),
    };
  });
}

/** Whether some live worker offers live captions in each language (its `live` engines, docs/live.md). */
export function liveLanguagesOf(workers: LiveWorker[]): { zh: boolean; en: boolean } {
  const offers = (language: "zh" | "en") =>
    workers.some((w) => (w.liveEngines ?? []).some((e) => e.language === language && e.available));
  return { zh: offers("zh"), en: offers("en") };
}

/** dictation/configuration's engine states: transcription per language, and live captions per language. */
export async function engineStates(db: Db, lang: Lang) {
  const workers = await liveWorkers(db);
  return { languages: languagesOf(workers, lang), live: liveLanguagesOf(workers) };
}

/**
 * Why a transcription in `language` must be refused now, in `lang` — or undefined to accept it.
 * Refused when the running workers report its engine not ready (model missing, still downloading,
 * failed; 'auto' without an engine that identifies languages): nothing is charged or queued, and the
 * user reads what to expect (wait for n %) or what the operator must do. With no worker running at all
 * the request is accepted: its job waits in the queue for a worker (workers restart, or run elsewhere).
 */
export async function engineRefusal(
  db: Db,
  language: DictationLanguage["value"],
  lang: Lang,
): Promise<string | undefined> {
  const workers = await liveWorkers(db);
  if (workers.length === 0) return undefined;
  const entry = languagesOf(workers, lang).find((l) => l.value === language);
  return entry && !entry.available ? entry.missing : undefined;
}
