import type { DictationConfiguration, DictationLanguage, LiveLanguage, TranscriptionLanguage } from "@yuelu/contracts";
import { readStorage, StorageKey, writeStorage } from "@/lib/storage.ts";

/** How often the language choice asks again while a model downloads (its percentage moves). */
export const DOWNLOAD_POLL_MS = 5_000;

/** Only a language whose engine is ready can be chosen. */
export function isSelectable(language: DictationLanguage): boolean {
  return language.available && language.state === "ready";
}

/**
 * "auto" can tell Chinese from English only where its language identifier is ready and so are both
 * languages' engines (it hands each what it heard): otherwise it would quietly transcribe as the one
 * language that works.
 */
export function canTellApart(config: DictationConfiguration | undefined): boolean {
  const languages = config?.languages ?? [];
  const auto = languages.find((l) => l.value === "auto");
  return Boolean(auto && isSelectable(auto) && languages.filter((l) => l.value !== "auto").every(isSelectable));
}

/** The languages shown: Chinese and English always (with their state), "auto" only where it can tell them apart. */
export function offeredLanguages(config: DictationConfiguration | undefined): DictationLanguage[] {
  const tellApart = canTellApart(config);
  return (config?.languages ?? []).filter((l) => l.value !== "auto" || tellApart);
}

/**
 * What the user would choose, best first: their last choice, else the UI's language. A last choice of
 * "auto" falls back to the UI's language where "auto" is not offered; a last choice of a language never
 * falls back to another one.
 */
export function preferredLanguages(last: TranscriptionLanguage | null, uiLang: "zh" | "en"): TranscriptionLanguage[] {
  if (!last) return [uiLang];
  return last === "auto" ? ["auto", uiLang] : [last];
}

/**
 * The language to preselect: the current one while it can be chosen; else the first preferred one that
 * can; else none — never another language in silence (a Chinese user is not defaulted into English).
 */
export function pickLanguage(
  config: DictationConfiguration | undefined,
  current: TranscriptionLanguage | null,
  preferred: readonly TranscriptionLanguage[],
): TranscriptionLanguage | null {
  const ready = offeredLanguages(config).filter(isSelectable);
  if (current && ready.some((l) => l.value === current)) return current;
  return preferred.find((p) => ready.some((l) => l.value === p)) ?? null;
}

export function hasAvailableLanguage(config: DictationConfiguration | undefined): boolean {
  return (config?.languages ?? []).some(isSelectable);
}

/** True while some language's model is downloading: the configuration is asked for again until it is done. */
export function isDownloading(config: DictationConfiguration | undefined): boolean {
  return (config?.languages ?? []).some((l) => l.state === "downloading");
}

/** A download's percentage as shown: a whole number from 0 to 100 (0 when the server has not said). */
export function downloadPercent(language: DictationLanguage): number {
  const p = Number(language.progress);
  return Number.isFinite(p) ? Math.min(100, Math.max(0, Math.floor(p))) : 0;
}

/** The user's last choice of transcription language (a preference of this browser), if any. */
export function lastLanguage(): TranscriptionLanguage | null {
  const value = readStorage(StorageKey.transcribeLanguage);
  return value === "zh" || value === "en" || value === "auto" ? value : null;
}

export function rememberLanguage(language: TranscriptionLanguage): void {
  writeStorage(StorageKey.transcribeLanguage, language);
}

/**
 * The live captions' language before the user picks one: `preferred` where the server offers it (or
 * has not said), else off — the recorder then says why, and the user may pick English knowingly.
 */
export function liveLanguageFor(
  preferred: "zh" | "en",
  offered: { zh: boolean; en: boolean } | undefined,
): LiveLanguage | null {
  return !offered || offered[preferred] ? preferred : null;
}
