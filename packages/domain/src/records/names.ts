import { FILE_NAME_MAX, UPLOAD_EXTENSIONS, withoutUnsafe } from "@yuelu/contracts";

/** How records are named: the accepted extensions, and names made safe to store and show. */

export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

// Path separators (controls and bidi overrides go by the title rule: withoutUnsafe).
const SEPARATORS = /[/\\]/g;

/** The lower-case extension of `name` when it is an accepted one (UPLOAD_EXTENSIONS), else undefined. */
export function uploadExtension(name: string): UploadExtension | undefined {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return (UPLOAD_EXTENSIONS as readonly string[]).includes(ext) ? (ext as UploadExtension) : undefined;
}

/** Cuts `text` to at most `max` characters (code points, so a surrogate pair is never split). */
function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join("");
}

/**
 * A record name made safe to store and to show: control characters and bidi overrides removed,
 * path separators replaced, surrounding whitespace and leading dots trimmed, at most 100 characters
 * with the extension `ext` kept at the end (a long base is shortened, never the extension). An empty
 * base becomes `fallback`.
 */
export function safeFileName(raw: string, ext: string, fallback = "audio"): string {
  const cleaned = withoutUnsafe(raw).replace(SEPARATORS, "_").trim();
  const suffix = `.${ext}`;
  const hasExt = cleaned.toLowerCase().endsWith(suffix.toLowerCase());
  let base = (hasExt ? cleaned.slice(0, -suffix.length) : cleaned).trim().replace(/^\.+/, "").trim();
  if (!base) base = fallback;
  const keptSuffix = hasExt ? cleaned.slice(-suffix.length) : suffix;
  return `${cut(base, FILE_NAME_MAX - [...keptSuffix].length).trim()}${keptSuffix}`;
}

/**
 * The new name of a rename: cleaned like an upload name; when it does not end with one of the accepted
 * media extensions, the record's current extension is appended (renaming "a.mp3" to "meeting"
 * gives "meeting.mp3").
 */
export function renamedFileName(raw: string, currentName: string, format: string): string {
  const cleaned = withoutUnsafe(raw).replace(SEPARATORS, "_").trim();
  const ext = uploadExtension(cleaned) ?? uploadExtension(currentName) ?? format;
  return safeFileName(cleaned, ext, "audio");
}
