import {
  MAX_TRANSCRIBE_SECONDS,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_SECONDS,
  UPLOAD_EXTENSIONS,
} from "@yuelu/contracts/constants";
import { extensionOf } from "@/utils/file-name.ts";

/**
 * Spec §5 upload rules, checked in the browser before a byte is sent (the server checks again,
 * with the content too). The limits are the contracts': files up to 1 GiB and 5 hours may be
 * uploaded; one transcription takes at most 3 hours (50001), so a longer file is said to be too
 * long for that as soon as its length is known — before the upload when the browser can read it,
 * else from the server's timeLen right after.
 */

/** The file input's accept attribute: the extensions (MIME types vary too much between systems). */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(",");

export type UploadRefusal = "badExtension" | "tooLarge" | "emptyFile" | "tooLong";

/** Why a file may not be uploaded, judging by its name and size; null when it may. */
export function checkUpload(file: { name: string; size: number }): UploadRefusal | null {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return "badExtension";
  if (file.size > MAX_UPLOAD_BYTES) return "tooLarge";
  if (file.size === 0) return "emptyFile";
  return null;
}

/** A length the browser read (null: it could not) that refuses the upload: over 5 hours. */
export function checkDuration(seconds: number | null): "tooLong" | null {
  return seconds !== null && seconds > MAX_UPLOAD_SECONDS ? "tooLong" : null;
}

/** Longer than one transcription may be (3 hours): uploaded, but it cannot be transcribed. */
export function tooLongToTranscribe(seconds: number | null | undefined): boolean {
  return typeof seconds === "number" && seconds > MAX_TRANSCRIBE_SECONDS;
}

/** A client upload id (docs/records-api.md: 8–64 chars of [A-Za-z0-9_-]); retrying with it is safe. */
export function newUploadId(): string {
  return `u${crypto.randomUUID().replaceAll("-", "")}`;
}
