import { BUILT_IN_AVATARS } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";

/**
 * Uploaded avatars: kept in the file store as `avatars/<uuid>.<ext>` and shown at a public URL (the
 * user's `userPhoto`). One place for the naming, so the upload, its replacement and the account
 * purge agree on which file an avatar is.
 */

export const AVATAR_URL_PREFIX = "/voice_yuelu/api/v1/user/photo/";
const AVATAR_NAME = /^[0-9a-f-]{36}\.(png|jpg|webp|gif)$/;

/** The file extension of a valid uploaded avatar's name, else undefined. */
export function avatarExtension(name: string): string | undefined {
  return AVATAR_NAME.exec(name)?.[1];
}

export const avatarKey = (name: string) => `avatars/${name}`;
export const avatarUrl = (name: string) => `${AVATAR_URL_PREFIX}${name}`;

/** The file-store key of `userPhoto` when it is an uploaded avatar (not a built-in or external one). */
export function uploadedAvatarKey(userPhoto: string): string | undefined {
  if (!userPhoto.startsWith(AVATAR_URL_PREFIX)) return undefined;
  const name = userPhoto.slice(AVATAR_URL_PREFIX.length);
  return avatarExtension(name) ? avatarKey(name) : undefined;
}

/** The built-in avatars the app ships (apps/web/public/avatars): anyone may choose one. */
export function isBuiltInAvatar(userPhoto: string): boolean {
  return (BUILT_IN_AVATARS as readonly string[]).includes(userPhoto);
}

/**
 * Removes an uploaded avatar's file once no account shows it any more — the caller's previous one,
 * never a file someone else's profile still points at.
 */
export async function dropAvatarFile(ctx: Pick<DomainContext, "db" | "files">, userPhoto: string): Promise<void> {
  const key = uploadedAvatarKey(userPhoto);
  if (!key) return;
  if ((await ctx.db.user.count({ where: { userPhoto } })) > 0) return;
  await ctx.files.delete(key).catch(() => {});
}
