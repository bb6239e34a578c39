import type { DictationConfiguration, TranscriptionLanguage } from "@yuelu/contracts";

/** The language to preselect: the current one while available, else "auto", else the first available. */
export function pickLanguage(config: DictationConfiguration | undefined, current: TranscriptionLanguage) {
  const available = (config?.languages ?? []).filter((l) => l.available);
  if (available.some((l) => l.value === current)) return current;
  return available.find((l) => l.value === "auto")?.value ?? available[0]?.value ?? current;
}

export function hasAvailableLanguage(config: DictationConfiguration | undefined): boolean {
  return (config?.languages ?? []).some((l) => l.available);
}
