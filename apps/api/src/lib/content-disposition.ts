import { withoutUnsafe } from "@yuelu/contracts";

/**
 * `attachment` (or `inline`) with an ASCII fallback name and the UTF-8 name (RFC 5987/6266), for every
 * download. The name goes through the title rule first (no controls, no bidi overrides: a U+202E
 * would otherwise turn "evil\u202Egpj.exe" into "evilexe.jpg" in the save dialog), whatever made it.
 */
export function contentDisposition(fileName: string, inline = false): string {
  const name = withoutUnsafe(fileName) || "download";
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * A work's title as a file name with `ext`: characters no file system takes become "_", and the "…"
 * of a shortened title is dropped; an empty title is named `fallback`.
 */
export function downloadName(title: string, ext: string, fallback = "download"): string {
  const name = title.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_").replace(/…$/, "") || fallback;
  return `${name}.${ext}`;
}
