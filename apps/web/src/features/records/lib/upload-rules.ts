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
 * uploaded; one transcription takes at most 3 hours (50001). A file the browser can read the length
 * of is refused before its upload when it is longer than a transcription may be (issue 43: a 3 h 10 min
 * file was uploaded whole, then refused) — the user may still upload it knowingly, to keep it
 * untranscribed; a file whose length the browser cannot read is said to be too long right after its
 * upload, from the server's timeLen.
 */

/** The file input's accept attribute: the extensions (MIME types vary too much between systems). */
export const UPLOAD_ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(",");

/** `overTranscribeLimit`: may be uploaded (≤ 5 h) but not transcribed (> 3 h) — refused unless the user insists. */
export type UploadRefusal = "badExtension" | "tooLarge" | "emptyFile" | "tooLong" | "overTranscribeLimit";

/** Why a file may not be uploaded, judging by its name and size; null when it may. */
export function checkUpload(file: { name: string; size: number }): UploadRefusal | null {
  if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return "badExtension";
  if (file.size > MAX_UPLOAD_BYTES) return "tooLarge";
  if (file.size === 0) return "emptyFile";
  return null;
}

/**
 * A length the browser read (null: it could not) that refuses the upload: over 5 hours (never uploaded), or
 * over the 3 hours one transcription takes (not uploaded unless `keepLong`: the user chose to keep it anyway).
 */
export function checkDuration(
  seconds: number | null,
  { keepLong = false } = {},
): "tooLong" | "overTranscribeLimit" | null {
  if (seconds === null) return null;
  if (seconds > MAX_UPLOAD_SECONDS) return "tooLong";
  return !keepLong && tooLongToTranscribe(seconds) ? "overTranscribeLimit" : null;
}

/** Longer than one transcription may be (3 hours): uploaded, but it cannot be transcribed. */
export function tooLongToTranscribe(seconds: number | null | undefined): boolean {
  return typeof seconds === "number" && seconds > MAX_TRANSCRIBE_SECONDS;
}

/** A client upload id (docs/records-api.md: 8–64 chars of [A-Za-z0-9_-]); retrying with it is safe. */
export function newUploadId(): string {
  return `u${crypto.randomUUID().replaceAll("-", "")}`;
}
