import type { DictationConfig, LanguageOption } from "../api/types.ts";

/** The language to preselect: the current one while available, else "auto", else the first available. */
export function pickLanguage(config: DictationConfig | undefined, current: LanguageOption["value"]) {
  const available = (config?.languages ?? []).filter((l) => l.available);
  if (available.some((l) => l.value === current)) return current;
  return available.find((l) => l.value === "auto")?.value ?? available[0]?.value ?? current;
}

export function hasAvailableLanguage(config: DictationConfig | undefined): boolean {
  return (config?.languages ?? []).some((l) => l.available);
}
