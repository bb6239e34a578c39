import type { Lang } from "@yuelu/contracts/constants";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { resources } from "@/locales/index.ts";
import { readStorage, StorageKey, writeStorage } from "./storage.ts";

export type { Lang };

/** Spec §1: the `lang` query parameter, else the stored lang; zh by default, en the alternative. */
export function detectLang(search: string = window.location.search): Lang {
  const fromQuery = new URLSearchParams(search).get("lang");
  if (fromQuery === "en" || fromQuery === "zh") {
    writeStorage(StorageKey.lang, fromQuery);
    return fromQuery;
  }
  return readStorage(StorageKey.lang) === "en" ? "en" : "zh";
}

export const i18n = i18next.createInstance();

export function initI18n(lang: Lang = detectLang()) {
  void i18n.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: "zh",
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  return i18n;
}

/** Switches language in place (the page and its state stay) and remembers the choice. */
export function setLang(lang: Lang) {
  writeStorage(StorageKey.lang, lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
  void i18n.changeLanguage(lang);
}

export function currentLang(): Lang {
  return i18n.language === "en" ? "en" : "zh";
}
