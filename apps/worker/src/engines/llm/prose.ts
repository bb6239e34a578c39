import { balancedObjects, withoutThinking } from "./json.ts";

/**
 * The prose of a reply that is not the JSON asked for (docs/notes.md "When the model answers in prose"), for the
 * notes that can use a model's plain words: its thinking, JSON and code-fence marks taken out, the chatter around
 * the substance cut ("Sure! Here is the summary:", "以下是摘要：", "Let me know if…", "希望对你有帮助"), Markdown
 * emphasis and headings dropped. What is left must have substance and not be a refusal; nothing is made up.
 */

/** fewer letters than this is no summary or answer ("not json", "好的。") */
export const MIN_PROSE_LETTERS = 12;

/** a line that only introduces what follows: "Sure! Here is the summary:", "好的，以下是翻译：", "## Summary" */
const LEAD_IN = new RegExp(
  [
    String.raw`^(?:(?:sure|certainly|of course|okay|ok|alright|absolutely|great)\b[!.,]?\s*)?(?:here(?:'s| is| are| you go)|below is|the following is)\b[^\n:：.!?]{0,80}(?:[:：]\s*|\.$)`,
    String.raw`^(?:(?:好的|当然|没问题|可以)[!！,，。.]?\s*)?(?:以下是|下面是)[^\n:：。！？]{0,40}(?:[:：]\s*|。$)`,
    "^(?:sure|certainly|of course|okay|ok|alright|absolutely|好的|当然|没问题)[!！.。,，]?$",
    String.raw`^(?:summary|answer|translation|摘要|总结|回答|答案|译文|翻译)\s*(?:[:：]\s*|$)`,
  ].join("|"),
  "iu",
);
/** a line that only closes the reply: "Let me know if you need anything else!", "希望对你有帮助。" */
const SIGN_OFF =
  /^(?:let me know|i hope (?:this|that|it)|hope (?:this|that|it)|feel free|if you (?:need|have|want|would)|is there anything|please let me|希望(?:以上|这些|这份|本)?(?:内容|摘要|回答|翻译)?对(?:你|您)有(?:所)?帮助|如果(?:您|你)(?:还)?(?:需要|有)|如有(?:任何)?(?:问题|疑问|需要)|还有什么)/iu;
/** a reply that declines rather than answers */
const REFUSAL =
  /^(?:i'?m sorry|i am sorry|sorry,|i cannot|i can'?t|i can not|i'?m unable|i am unable|as an ai|unfortunately,? i|抱歉|对不起|很抱歉|我无法|我不能)/iu;

/** The reply's lines as written: thinking, parsable JSON objects and fence marks removed, Markdown marks dropped. */
export function replyLines(text: string): string[] {
  let reply = withoutThinking(text);
  for (const object of balancedObjects(reply)) if (parses(object)) reply = reply.replace(object, "");
  return reply
    .split(/\r?\n/)
    .map((line) => plain(line))
    .filter((line) => line !== "" && !/^`{3}/.test(line));
}

/** The reply's lines that carry something: replyLines with the introducing and closing chatter cut. */
export function proseLines(text: string): string[] {
  const lines = replyLines(text);
  let first = 0;
  while (first < lines.length) {
    // a lead-in before text on the same line is cut from it
    const rest = lines[first]!.replace(LEAD_IN, "").trim();
    if (rest === lines[first]) break;
    if (rest) {
      lines[first] = rest;
      break;
    }
    first++;
  }
  let last = lines.length;
  while (last > first && SIGN_OFF.test(lines[last - 1]!)) last--;
  return lines.slice(first, last);
}

/** The reply as one text of at most `maxChars` (cut at a sentence end when one is near), or null if unusable. */
export function proseOf(text: string, maxChars: number): string | null {
  const prose = proseLines(text).join("\n").trim();
  if (!prose || REFUSAL.test(prose)) return null;
  if ((prose.match(/\p{L}/gu) ?? []).length < MIN_PROSE_LETTERS) return null;
  return bounded(prose, maxChars);
}

function plain(line: string): string {
  return line
    .trim()
    .replace(/^#{1,6}\s+/, "")
    .replace(/^>\s?/, "")
    .replace(/\*\*|__/g, "")
    .trim();
}

function parses(candidate: string): boolean {
  try {
    JSON.parse(candidate);
    return true;
  } catch {
    return false;
  }
}

function bounded(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = text.slice(0, maxChars);
  const end = Math.max(...["。", "！", "？", ". ", "! ", "? ", "\n"].map((mark) => head.lastIndexOf(mark)));
  // a sentence end in the last stretch keeps whole sentences; otherwise the text is cut where it must be
  return end >= maxChars * 0.6 ? head.slice(0, end + 1).trim() : `${head.trimEnd()}…`;
}
