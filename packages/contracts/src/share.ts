import { z } from "zod";
import { zFlag, zId, zText } from "./common.ts";
import {
  SHARE_DEFAULT_EXPIRE_DAYS,
  SHARE_EXPIRE_DAYS,
  SHARE_PASSWORD_MAX,
  SHARE_PASSWORD_MIN,
  SHARE_STATES,
  type ShareExpireDays,
} from "./share-constants.ts";

export * from "./share-constants.ts";

/**
 * Share links (docs/share.md): a read-only public page of one record at `/s/<token>`, made by its
 * owner with an expiry, an optional password and with or without the audio.
 */

const expireReason = "must be 1, 7, 30 or 0 (never)";
export const zShareExpireDays = z.coerce
  .number({ error: expireReason })
  .refine((d): d is ShareExpireDays => (SHARE_EXPIRE_DAYS as readonly number[]).includes(d), expireReason)
  .transform((d) => d as ShareExpireDays);

/** An optional password: absent or empty means none (a form's empty field), else 4–64 characters. */
export const zSharePassword = z.preprocess(
  (v) => (v === "" || v === null ? undefined : v),
  zText({ min: SHARE_PASSWORD_MIN, max: SHARE_PASSWORD_MAX, trim: false }).optional(),
);

export const ZShareCreateBody = z.object({
  fileId: zId,
  expireDays: zShareExpireDays.default(SHARE_DEFAULT_EXPIRE_DAYS),
  password: zSharePassword,
  withAudio: zFlag.default(true),
  /** a link to one clip of the record (docs/clips.md): its page shows the clip, its audio and its captions */
  clipId: zId.optional(),
});
export type ShareCreateBody = z.infer<typeof ZShareCreateBody>;

/** generate_url: `fileId` alone makes (or reuses) the default link; the other fields are optional. */
export const ZGenerateUrlQuery = z.object({
  fileId: zId,
  expireDays: zShareExpireDays.optional(),
  password: zSharePassword,
  withAudio: zFlag.optional(),
});

export const ZShareLink = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  /** the public page: `<PUBLIC_URL or request origin>/s/<token>` */
  url: z.string(),
  withAudio: z.boolean(),
  hasPassword: z.boolean(),
  /** the days it was made for: 1, 7, 30, or 0 (never expires) */
  expireDays: z.number().int(),
  /** epoch seconds; 0 = never expires */
  expireTime: z.number().int(),
  /** epoch seconds */
  createTime: z.number().int(),
  viewCount: z.number().int(),
  /** epoch seconds; 0 = never viewed */
  lastViewTime: z.number().int(),
  state: z.enum(SHARE_STATES),
  /** present on a link to one clip of the record (docs/clips.md) */
  clipId: z.number().int().optional(),
});
export type ShareLink = z.infer<typeof ZShareLink>;

export const ZShareListQuery = z.object({ fileId: zId });
/** The record's links that are not revoked, newest first (expired ones too, marked so). */
export const ZShareList = z.object({ list: z.array(ZShareLink) });
export type ShareList = z.infer<typeof ZShareList>;

export const ZShareRevokeBody = z.object({ id: zId });
export const ZShareRevoked = z.object({ id: z.number().int() });
