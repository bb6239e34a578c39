import { AVATAR_IMAGE_BYTES, BUILT_IN_AVATARS, NICKNAME_MAX } from "@yuelu/contracts/constants";

/** The built-in avatars (apps/web/public/avatars), stored as the user's userPhoto. */
export const AVATARS = BUILT_IN_AVATARS;

/** Why a nickname cannot be saved (the server's rule: 1–20 characters once trimmed), or null. */
export function nicknameProblem(value: string): "empty" | "tooLong" | null {
  const name = value.trim();
  if (name === "") return "empty";
  if (name.length > NICKNAME_MAX) return "tooLong";
  return null;
}

const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** Why a chosen avatar file cannot be uploaded (the server checks the same, by content), or null. */
export function avatarFileProblem(file: { type: string; size: number }): "avatarNotImage" | "avatarTooBig" | null {
  if (!AVATAR_TYPES.includes(file.type)) return "avatarNotImage";
  if (file.size > AVATAR_IMAGE_BYTES) return "avatarTooBig";
  return null;
}
