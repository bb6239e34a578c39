import { engineProblemMessage, type Lang, TRANSCRIPTION_LANGUAGES } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type LiveWorker, liveWorkers } from "@yuelu/runtime";

/** What the running workers can transcribe (their heartbeats, runtime/worker-registry.ts). */

const LANGUAGE_LABELS = {
  zh: { zh: "中文", en: "Chinese" },
  en: { zh: "英文", en: "English" },
  auto: { zh: "自动识别", en: "Auto-detect" },
} as const;

export interface LanguageAvailability {
  value: (typeof TRANSCRIPTION_LANGUAGES)[number];
  label: string;
  available: boolean;
  engine: string;
  missing?: string;
}

/**
 * One entry per language: available when some live worker reports an engine ready for it (that
 * worker's engine is named); otherwise why not, in `lang` — "no worker is running" when none is.
 */
export function languagesOf(workers: LiveWorker[], lang: Lang): LanguageAvailability[] {
  return TRANSCRIPTION_LANGUAGES.map((value) => {
    const reports = workers.flatMap((w) => w.engines.filter((e) => e.language === value));
    const ready = reports.find((r) => r.available);
    const label = LANGUAGE_LABELS[value][lang];
    if (ready) return { value, label, available: true, engine: ready.engine };
    const first = reports[0];
    return {
      value,
      label,
      available: false,
      engine: first?.engine ?? "none",
      missing: engineProblemMessage(first ? (first.problem ?? "unknown") : "no-worker", lang),
    };
  });
}

export async function languageAvailability(db: Db, lang: Lang): Promise<LanguageAvailability[]> {
  return languagesOf(await liveWorkers(db), lang);
}
