/**
 * The one text rule every input field obeys (zod-free). PostgreSQL cannot store the NUL character
 * in text, so a NUL anywhere in a request would otherwise surface as a 500; single-line fields
 * (names, titles, codes) also refuse the other control characters and the bidi overrides that
 * disguise an extension. `zText` (common.ts) applies it to a schema field, and the API's params
 * plugin applies `findNul` to every query and body before any route sees it, so fields added later
 * are covered too.
 */

export const NUL_REASON = "must not contain the NUL character";
export const CONTROL_REASON = "must not contain control characters";

/** C0 controls except tab, line feed and carriage return, DEL, and U+FFFE/U+FFFF non-characters. */
const MULTILINE_UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/;
/** Every C0 control, DEL, the bidi embeddings/overrides/isolates and the non-characters. */
const SINGLE_LINE_UNSAFE = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;

/**
 * `text` without what a single-line name must not hold (controls, bidi overrides and isolates,
 * non-characters): the title rule for names the server makes itself — a default title cut from a
 * text, a download's file name — where refusing is not an option.
 */
export function withoutUnsafe(text: string): string {
  return text.replace(new RegExp(SINGLE_LINE_UNSAFE.source, "g"), "");
}

/** Why `text` is not acceptable input (one of the reasons above), or undefined when it is. */
export function unsafeTextReason(text: string, options: { multiline?: boolean } = {}): string | undefined {
  if (text.includes("\u0000")) return NUL_REASON;
  const unsafe = options.multiline ? MULTILINE_UNSAFE : SINGLE_LINE_UNSAFE;
  return unsafe.test(text) ? CONTROL_REASON : undefined;
}

/**
 * The path ("asrResult.3.text") of the first string — key or value, at any depth — holding a NUL
 * character, or undefined. Arrays and plain objects are walked; other values are ignored.
 */
export function findNul(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path.join(".") || "body" : undefined;
  if (depth > 32 || value === null || typeof value !== "object") return undefined;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    const name = String(key);
    if (name.includes("\u0000")) return [...path, name.replaceAll("\u0000", "\\0")].join(".");
    const hit = findNul(item, [...path, name], depth + 1);
    if (hit !== undefined) return hit;
  }
  return undefined;
}
