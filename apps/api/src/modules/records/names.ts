import { FILE_NAME_MAX, UPLOAD_EXTENSIONS } from "@yuelu/contracts";

export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

// Control characters, bidi overrides/isolates (they disguise an extension), path separators.
const UNSAFE = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
const SEPARATORS = /[/\\]/g;

/** The lower-case extension of `name` when it is one of spec §5's 15, else undefined. */
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
  const cleaned = raw.replace(UNSAFE, "").replace(SEPARATORS, "_").trim();
  const suffix = `.${ext}`;
  const hasExt = cleaned.toLowerCase().endsWith(suffix.toLowerCase());
  let base = (hasExt ? cleaned.slice(0, -suffix.length) : cleaned).trim().replace(/^\.+/, "").trim();
  if (!base) base = fallback;
  const keptSuffix = hasExt ? cleaned.slice(-suffix.length) : suffix;
  return `${cut(base, FILE_NAME_MAX - [...keptSuffix].length).trim()}${keptSuffix}`;
}

/**
 * The new name of a rename: cleaned like an upload name; when it does not end with one of the 15
 * media extensions, the record's current extension is appended (renaming "a.mp3" to "meeting"
 * gives "meeting.mp3").
 */
export function renamedFileName(raw: string, currentName: string, format: string): string {
  const cleaned = raw.replace(UNSAFE, "").replace(SEPARATORS, "_").trim();
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

/**
 * Content-Disposition with the UTF-8 name per RFC 6266 / RFC 5987 (`filename*`), and an ASCII
 * fallback `filename` for old clients (non-ASCII, quotes and backslashes replaced by "_").
 */
export function contentDisposition(fileName: string, inline = false): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
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
};

/** The Content-Type a record is served with, from its format (extension). */
export function mimeOf(format: string): string {
  return MIME[format.toLowerCase()] ?? "application/octet-stream";
}
