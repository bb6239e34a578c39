import type { i18n as I18n } from "i18next";
import { admin as en } from "./en/admin.ts";
import { admin as zh } from "./zh/admin.ts";

/**
 * The operator console's texts (locales/<lang>/admin.ts). Not in locales/index.ts: the console's
 * route module adds them when it loads, so the pages users see never download them. The English
 * file is typed by the Chinese one (same keys); locales.test.ts checks them with the rest.
 */
export const adminResources = { zh: { translation: zh }, en: { translation: en } } as const;

export function registerAdminTexts(i18n: I18n) {
  for (const [lang, bundle] of Object.entries(adminResources)) {
    // getResource reads this language's own texts: i18n.exists() would answer from the fallback
    // language (zh), so English would never be added once the Chinese was
    if (i18n.getResource(lang, "translation", "admin.title") === undefined) {
      i18n.addResourceBundle(lang, "translation", bundle.translation, true, false);
    }
  }
}
