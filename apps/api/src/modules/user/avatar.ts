import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import { AVATAR_IMAGE_BYTES } from "@yuelu/contracts";
import { AppError, avatarKey, avatarUrl, type DomainContext, updateProfile } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyRequest } from "fastify";
import { readImage } from "../../lib/images.ts";

/**
 * Avatars uploaded from the personal centre: stored in the file store under an unguessable name and
 * served publicly (an avatar is shown to whoever sees the user, like the built-in ones).
 */

/**
 * upload_photo: the multipart field `file` (one image, PNG/JPEG/WebP/GIF by content, ≤ 2 MiB) becomes
 * the user's avatar; the previous uploaded one is removed once the new one is in place.
 */
export async function uploadAvatar(
  ctx: DomainContext,
  files: FileStore,
  request: FastifyRequest,
  userId: number,
): Promise<void> {
  if (!request.isMultipart()) throw AppError.invalid("file", "is required");
  const part = await request.file({ limits: { files: 1, fileSize: AVATAR_IMAGE_BYTES } });
  if (!part) throw AppError.invalid("file", "is required");
  const { body, ext } = await readImage(part.file, { field: "file", maxBytes: AVATAR_IMAGE_BYTES });
  const name = `${randomUUID()}.${ext}`;
  const stream = new PassThrough();
  stream.end(body);
  await files.put(avatarKey(name), stream);

  try {
    // the previous uploaded avatar's file goes with it (updateProfile)
    await updateProfile(ctx, userId, { userPhoto: avatarUrl(name) }, { uploaded: true });
  } catch (error) {
    await files.delete(avatarKey(name)).catch(() => {});
    throw error;
  }
}
