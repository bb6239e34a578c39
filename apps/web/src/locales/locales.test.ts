import { afterAll, describe, expect, it } from "vitest";
import { i18n } from "@/lib/i18n.ts";
import { adminResources } from "./admin.ts";
import { resources } from "./index.ts";

type Tree = { [key: string]: string | Tree };

/** Every [key path, text] of a catalogue. */
function entries(tree: Tree, prefix = ""): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`),
  );
}

// the operator console's texts load with its own chunk (locales/admin.ts), but are checked with the rest
const en = [...entries(resources.en.translation as unknown as Tree), ...entries(adminResources.en.translation)];
const zh = [...entries(resources.zh.translation as unknown as Tree), ...entries(adminResources.zh.translation)];

/**
 * Chinese characters and the full-width punctuation that gives a Chinese sentence away: none of
 * it belongs in an English text (the UI must not read '文件超过 1 GB：a.mp3' in English).
 */
const CJK = /[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/u;

describe("the English catalogue", () => {
  it("has no Chinese characters or Chinese punctuation (，。：！？（）、…) in any text", () => {
    expect(en.length).toBeGreaterThan(300);
    expect(en.filter(([, text]) => CJK.test(text)).map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  it("words plurals with _one/_other, never '(s)'", () => {
    expect(en.filter(([, text]) => /\(s\)|\(es\)/.test(text)).map(([key]) => key)).toEqual([]);
    const keys = new Set(en.map(([key]) => key));
    const unpaired = [...keys].filter((key) => {
      const match = /^(.*)_(one|other)$/.exec(key);
      return match && !keys.has(`${match[1]}_${match[2] === "one" ? "other" : "one"}`);
    });
    expect(unpaired).toEqual([]);
  });

  it("says '1 day' and '2 days'", async () => {
    await i18n.changeLanguage("en");
    expect(i18n.t("units.days", { count: 1 })).toBe("1 day");
    expect(i18n.t("units.days", { count: 2 })).toBe("2 days");
    expect(i18n.t("checkin.monthProgress", { count: 1 })).toBe("1 day signed this month");
    expect(i18n.t("checkin.monthProgress", { count: 5 })).toBe("5 days signed this month");
    expect(i18n.t("checkin.beansN", { count: 1 })).toBe("1 bean");
    expect(i18n.t("checkin.beansN", { count: 10 })).toBe("10 beans");
    expect(i18n.t("records.deleteText", { count: 1 })).toMatch(/^Move 1 record to/);
    expect(i18n.t("records.deleteText", { count: 3 })).toMatch(/^Move 3 records to/);
    expect(i18n.t("transcribe.dialogTitle", { count: 1 })).toBe("Transcribe 1 file");
    expect(i18n.t("transcribe.dialogTitle", { count: 2 })).toBe("Transcribe 2 files");
  });

  it("has the same keys as the Chinese one (the English files are typed by the Chinese)", () => {
    expect(en.map(([key]) => key).sort()).toEqual(zh.map(([key]) => key).sort());
  });

  it("keeps every placeholder of the Chinese text", () => {
    const zhByKey = new Map(zh);
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const mismatched = en.filter(([key, text]) => {
      const chinese = zhByKey.get(key) ?? "";
      return placeholders(chinese).join() !== placeholders(text).join();
    });
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });
});

afterAll(() => i18n.changeLanguage("zh"));
