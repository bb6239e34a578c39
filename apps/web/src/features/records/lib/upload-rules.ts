/**
 * Spec §5 upload rules, checked in the browser before a byte is sent (the server checks again,
 * with the content too). Kept here rather than imported from @yuelu/contracts: that module builds
 * zod schemas at import time and would pull zod into the page's chunk. upload-rules.test.ts checks
 * that both lists agree.
 */
export const UPLOAD_EXTENSIONS = [
  "wav",
  "mp3",
  "m4a",
  "aac",
  "mp4",
  "3gp",
  "mkv",
  "flv",
  "mov",
  "wmv",
  "mxf",
  "avi",
  "amr",
  "wma",
  "m4s",
] as const;
export const MAX_UPLOAD_BYTES = 1_073_741_824;

/** The file input's accept attribute: the extensions (MIME types vary too much between systems). */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(",");

/** Formats that are video containers: the detail page plays them in a <video>. */
export const VIDEO_FORMATS = new Set(["mp4", "3gp", "mkv", "flv", "mov", "wmv", "mxf", "avi", "m4s"]);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 || dot === name.length - 1 ? "" : name.slice(dot + 1).toLowerCase();
}

export type UploadRefusal = "badExtension" | "tooLarge" | "emptyFile";

/** Why a file may not be uploaded, or null when it may. */
export function checkUpload(file: { name: string; size: number }): UploadRefusal | null {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return "badExtension";
  if (file.size > MAX_UPLOAD_BYTES) return "tooLarge";
  if (file.size === 0) return "emptyFile";
  return null;
}

/** A client upload id (docs/records-api.md: 8–64 chars of [A-Za-z0-9_-]); retrying with it is safe. */
export function newUploadId(): string {
  return `u${crypto.randomUUID().replaceAll("-", "")}`;
}
