import { en } from "./en/index.ts";
import { zh } from "./zh/index.ts";

/**
 * Texts per language, split per feature (locales/<lang>/<feature>.ts). Chinese is the source:
 * each English file is typed by its Chinese twin, so both have the same keys. Keys with a count
 * have `_one` and `_other` in both languages — Chinese only ever uses `_other`, English needs both
 * ('1 day', '2 days') — which keeps the key sets equal.
 */
export const resources = { zh: { translation: zh }, en: { translation: en } } as const;
export type Messages = typeof zh;
