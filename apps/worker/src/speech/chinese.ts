import { createRequire } from "node:module";

/**
 * Chinese text as users expect it, whatever the engine wrote: Simplified characters (whisper often
 * answers in Traditional), Chinese punctuation (，。？！：；) and none of the spaces English puts
 * between words. Numbers stay as the engine gave them ("3.5", "10:30" keep their ASCII marks).
 */

const HAN = "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff";
const FULL_PUNCT = "，。？！：；、…“”‘’（）《》【】";
const CJK = new RegExp(`[${HAN}]`);

let converter: ((text: string) => string) | undefined;

/** Traditional (Taiwan, Hong Kong or OpenCC standard forms) → Simplified, character by character. */
export function toSimplified(text: string): string {
  // loaded by the first Chinese text (its tables are a few MB a worker that never meets one does not hold)
  converter ??= (createRequire(import.meta.url)("opencc-js/t2cn") as typeof import("opencc-js/t2cn")).Converter({
    from: "tw",
    to: "cn",
  });
  return converter(text);
}

const ASCII_TO_FULL: Record<string, string> = { ",": "，", ".": "。", "?": "？", "!": "！", ":": "：", ";": "；" };

/**
 * ASCII punctuation next to Han characters becomes its Chinese form (not inside numbers: "3.5",
 * "10:30"), and spaces between Han characters or around Chinese punctuation go.
 */
export function chineseTypography(text: string): string {
  // an ellipsis, in its Chinese form
  let out = text.replace(/\s*(?:\.{3,}|…+)/g, "……");
  // a mark after a Han character (or closing a Han sentence), unless it sits between two digits
  out = out.replace(new RegExp(`(?<=[${HAN}])\\s*([,.?!:;])(?!\\d)`, "g"), (_, mark: string) => ASCII_TO_FULL[mark]!);
  // a mark before a Han character that follows a non-digit (", 我" after a word)
  out = out.replace(new RegExp(`(?<!\\d)([,?!;])\\s*(?=[${HAN}])`, "g"), (_, mark: string) => ASCII_TO_FULL[mark]!);
  // the sentence's last mark, even after a number ("10:30." → "10:30。")
  out = out.replace(/\s*([.?!])$/, (_, mark: string) => ASCII_TO_FULL[mark]!);
  // no spaces between Han characters, nor around Chinese punctuation
  out = out.replace(new RegExp(`(?<=[${HAN}])\\s+(?=[${HAN}])`, "g"), "");
  out = out.replace(new RegExp(`\\s*([${FULL_PUNCT}])\\s*`, "g"), "$1");
  return out.trim();
}

export function hasHan(text: string): boolean {
  return CJK.test(text);
}
