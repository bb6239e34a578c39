import type { DictationConfiguration, DictationLanguage, TranscriptionLanguage } from "@yuelu/contracts";

/** How often the language choice asks again while a model downloads (its percentage moves). */
export const DOWNLOAD_POLL_MS = 5_000;

/** Only a language whose engine is ready can be chosen. */
export function isSelectable(language: DictationLanguage): boolean {
  return language.available && language.state === "ready";
}

/** The language to preselect: the current one while selectable, else "auto", else the first selectable. */
export function pickLanguage(config: DictationConfiguration | undefined, current: TranscriptionLanguage) {
  const ready = (config?.languages ?? []).filter(isSelectable);
  if (ready.some((l) => l.value === current)) return current;
  return ready.find((l) => l.value === "auto")?.value ?? ready[0]?.value ?? current;
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
