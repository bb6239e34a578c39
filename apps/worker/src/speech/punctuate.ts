import { chineseTypography, hasHan, toSimplified } from "./chinese.ts";

const HAS_PUNCTUATION = /[.,!?;:。，！？；：、…]/;
const EN_QUESTION =
  /^(what|why|how|who|whom|whose|where|when|which|is|are|am|was|were|do|does|did|can|could|would|will|should|shall|may|might|have|has|had|isn't|aren't|don't|doesn't|didn't|can't|won't)\b/i;
const ZH_QUESTION = /(吗|呢|么|吧|嘛|没有|是不是|对不对|好不好|行不行)$/;

/**
 * Keeps the engine's punctuation; text that has none gets a simple rule-based pass: Chinese pauses
 * (spaces between Han characters) become "，" and the end "。" or "？" (question particles); English
 * gets a capital, "I", and "." or "?" (a leading question word).
 */
export function punctuate(text: string, language: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  if (!t) return t;
  if (language === "zh" || hasHan(t)) return punctuateChinese(toSimplified(t));
  if (HAS_PUNCTUATION.test(t)) return t;
  const body = t.replace(/\bi\b/g, "I").replace(/^./, (c) => c.toUpperCase());
  return `${body}${EN_QUESTION.test(body) ? "?" : "."}`;
}

/** Simplified Chinese text: pauses become "，" and the end "。" or "？" where the engine wrote no marks; Chinese typography always. */
function punctuateChinese(t: string): string {
  if (HAS_PUNCTUATION.test(t)) return chineseTypography(t);
  const body = t.replace(/(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])/g, "，");
  return chineseTypography(`${body}${ZH_QUESTION.test(body) ? "？" : "。"}`);
}
