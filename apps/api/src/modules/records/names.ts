import { FILE_NAME_MAX, UPLOAD_EXTENSIONS, withoutUnsafe } from "@yuelu/contracts";

export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

// Path separators (controls and bidi overrides go by the title rule: withoutUnsafe).
const SEPARATORS = /[/\\]/g;

/**
 * A file name as the user typed it. Browsers (and undici's FormData) write `"` in a multipart
 * filename as `%22`, and CR and LF as `%0D` and `%0A` (WHATWG multipart/form-data encoding), so
 * `jfk 演讲 "quote".wav` arrives as `jfk 演讲 %22quote%22.wav`: decoded here, nothing else is.
 */
export function formFileName(raw: string): string {
  return raw.replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
}

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

/**
 * A record name as a zip entry: characters that Windows forbids in file names (and that zip tools
 * read as drive letters or folders, "a:b.wav") become "_", so every archive extracts everywhere.
 */
export function zipEntryName(name: string): string {
  return name.replace(/[<>:"|?*\\/]/g, "_");
}

/** Makes names unique inside one zip: "a.mp3", "a (1).mp3", "a (2).mp3"… (case-insensitive). */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf(".");
    const base = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : "";
    let candidate = name;
    for (let n = 1; taken.has(candidate.toLowerCase()); n++) candidate = `${base} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

const MIME: Record<string, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  mp4: "video/mp4",
  "3gp": "video/3gpp",
  mkv: "video/x-matroska",
  flv: "video/x-flv",
  mov: "video/quicktime",
  wmv: "video/x-ms-wmv",
  mxf: "application/mxf",
  avi: "video/x-msvideo",
  amr: "audio/amr",
  wma: "audio/x-ms-wma",
  m4s: "video/iso.segment",
  webm: "audio/webm",
  weba: "audio/webm",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  aiff: "audio/aiff",
  caf: "audio/x-caf",
};

/** The Content-Type a record is served with, from its format (extension). */
export function mimeOf(format: string): string {
  return MIME[format.toLowerCase()] ?? "application/octet-stream";
}
