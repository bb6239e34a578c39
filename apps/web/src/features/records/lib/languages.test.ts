import type { DictationConfiguration, DictationLanguage } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { downloadPercent, hasAvailableLanguage, isDownloading, pickLanguage } from "./languages.ts";

const lang = (value: DictationLanguage["value"], state: DictationLanguage["state"], progress?: number) =>
  ({ value, label: value, available: state === "ready", state, engine: "x", progress }) as DictationLanguage;
const config = (...languages: DictationLanguage[]): DictationConfiguration => ({
  languages,
  maxSpeakers: 10,
  maxSeconds: 10800,
});

describe("languages", () => {
  it("preselects only a ready language: the current one, else auto, else the first ready", () => {
    const c = config(lang("zh", "downloading", 50), lang("en", "ready"), lang("auto", "missing"));
    expect(pickLanguage(c, "zh")).toBe("en");
    expect(pickLanguage(c, "en")).toBe("en");
    expect(pickLanguage(config(lang("zh", "ready"), lang("auto", "ready")), "en")).toBe("auto");
    expect(pickLanguage(config(lang("zh", "failed")), "auto")).toBe("auto");
  });

  it("an available flag without the ready state is not selectable", () => {
    const odd = { ...lang("zh", "downloading"), available: true };
    expect(hasAvailableLanguage(config(odd))).toBe(false);
    expect(hasAvailableLanguage(config(odd, lang("en", "ready")))).toBe(true);
  });

  it("knows when something downloads, and shows its percentage whole and within 0–100", () => {
    expect(isDownloading(config(lang("zh", "downloading", 5), lang("en", "ready")))).toBe(true);
    expect(isDownloading(config(lang("zh", "failed")))).toBe(false);
    expect(isDownloading(undefined)).toBe(false);
    expect(downloadPercent(lang("zh", "downloading", 42.9))).toBe(42);
    expect(downloadPercent(lang("zh", "downloading", 140))).toBe(100);
    expect(downloadPercent(lang("zh", "downloading"))).toBe(0);
  });
});
