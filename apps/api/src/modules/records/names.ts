/** Names at the HTTP edge: a multipart file name as typed, zip entries, media types. */

/**
 * A file name as the user typed it. Browsers (and undici's FormData) write `"` in a multipart
 * filename as `%22`, and CR and LF as `%0D` and `%0A` (WHATWG multipart/form-data encoding), so
 * `jfk 演讲 "quote".wav` arrives as `jfk 演讲 %22quote%22.wav`: decoded here, nothing else is.
 */
export function formFileName(raw: string): string {
  return raw.replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
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
