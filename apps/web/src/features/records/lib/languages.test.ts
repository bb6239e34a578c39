import type { DictationConfiguration, DictationLanguage } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import {
  canTellApart,
  downloadPercent,
  hasAvailableLanguage,
  isDownloading,
  liveLanguageFor,
  offeredLanguages,
  pickLanguage,
  preferredLanguages,
} from "./languages.ts";

const lang = (value: DictationLanguage["value"], state: DictationLanguage["state"], progress?: number) =>
  ({ value, label: value, available: state === "ready", state, engine: "x", progress }) as DictationLanguage;
const config = (...languages: DictationLanguage[]): DictationConfiguration => ({
  languages,
  maxSpeakers: 10,
  maxSeconds: 10800,
});

describe("languages", () => {
  it("preselects the preferred language where it is ready, else nothing: never another one in silence", () => {
    const zhDownloading = config(lang("zh", "downloading", 50), lang("en", "ready"), lang("auto", "missing"));
    // a Chinese user while Chinese downloads: nothing, not English
    expect(pickLanguage(zhDownloading, null, ["zh"])).toBeNull();
    expect(pickLanguage(zhDownloading, "zh", ["zh"])).toBeNull();
    // an English user, or one who chose English: English
    expect(pickLanguage(zhDownloading, null, ["en"])).toBe("en");
    expect(pickLanguage(zhDownloading, "en", ["zh"])).toBe("en");
    // everything ready: the preferred one (the UI's language, or the last choice)
    const ready = config(lang("zh", "ready"), lang("en", "ready"), lang("auto", "ready"));
    expect(pickLanguage(ready, null, ["zh"])).toBe("zh");
    expect(pickLanguage(ready, null, ["auto", "zh"])).toBe("auto");
    // a choice that stops being ready is dropped; "auto" where it cannot tell the languages apart is never kept
    expect(pickLanguage(config(lang("zh", "failed"), lang("en", "ready")), "zh", ["zh"])).toBeNull();
    expect(
      pickLanguage(config(lang("zh", "missing"), lang("en", "ready"), lang("auto", "ready")), "auto", ["en"]),
    ).toBe("en");
  });

  it("prefers the last choice, else the UI's language; a last 'auto' falls back to the UI's language", () => {
    expect(preferredLanguages(null, "zh")).toEqual(["zh"]);
    expect(preferredLanguages("en", "zh")).toEqual(["en"]);
    expect(preferredLanguages("auto", "en")).toEqual(["auto", "en"]);
  });

  it("offers auto only where it can tell the languages apart", () => {
    const all = config(lang("zh", "ready"), lang("en", "ready"), lang("auto", "ready"));
    expect(canTellApart(all)).toBe(true);
    expect(offeredLanguages(all).map((l) => l.value)).toEqual(["zh", "en", "auto"]);
    const noZh = config(lang("zh", "downloading", 5), lang("en", "ready"), lang("auto", "ready"));
    expect(canTellApart(noZh)).toBe(false);
    expect(offeredLanguages(noZh).map((l) => l.value)).toEqual(["zh", "en"]);
    expect(offeredLanguages(config(lang("zh", "ready"), lang("en", "ready"), lang("auto", "missing"))).length).toBe(2);
  });

  it("live captions start in the preferred language where offered, else off", () => {
    expect(liveLanguageFor("zh", { zh: false, en: true })).toBeNull();
    expect(liveLanguageFor("en", { zh: false, en: true })).toBe("en");
    expect(liveLanguageFor("zh", { zh: true, en: true })).toBe("zh");
    expect(liveLanguageFor("zh", undefined)).toBe("zh");
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
