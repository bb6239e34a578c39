import type { Readable } from "node:stream";
import { imageTooLargeReason } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import { fileTypeFromBuffer } from "file-type";

/** The images users may upload (screenshots, avatars), by their content — never by their name. */
export const IMAGE_TYPES: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};

const MIME_OF = Object.fromEntries(Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime]));

/** The content type of a stored image's extension (what it was sniffed as when stored). */
export function imageMime(ext: string): string | undefined {
  return MIME_OF[ext];
}

/**
 * Reads one uploaded image into memory: at most `maxBytes`, and only PNG, JPEG, WebP or GIF by its
 * content; anything else is a 10002 naming `field` (with the size limit, in MB, in the reason).
 */
export async function readImage(
  file: Readable & { truncated?: boolean },
  options: { field: string; maxBytes: number },
): Promise<{ body: Buffer; ext: string }> {
  const tooBig = () => AppError.invalid(options.field, imageTooLargeReason(options.maxBytes));
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > options.maxBytes) throw tooBig();
    chunks.push(chunk);
  }
  if (file.truncated) throw tooBig();
  const body = Buffer.concat(chunks);
  const type = await fileTypeFromBuffer(body);
  const ext = type ? IMAGE_TYPES[type.mime] : undefined;
  if (!ext) throw AppError.invalid(options.field, "only images are accepted (PNG, JPEG, WebP, GIF)");
  return { body, ext };
}
