import { z } from "zod";
import { zId, zText } from "../common.ts";
import { zRequestId } from "../voice.ts";
import { adminPageQuery } from "./common.ts";

/**
 * Contracts of /voice_yuelu/admin/messages (docs/admin.md, "Messages"): an operator's message to
 * everyone or to one user, in Chinese and optionally English, shown in the message centre.
 */

export const ADMIN_MESSAGE_TITLE_MAX = 60;
export const ADMIN_MESSAGE_TEXT_MAX = 2000;

export const ZAdminMessageSend = z.object({
  /** the client's key for this send: the same key sends once, however often it arrives */
  requestId: zRequestId.unwrap(),
  /** 'all': every user, present and future; 'user': the one named by userId or phone */
  audience: z.enum(["all", "user"]),
  userId: zId.optional(),
  phone: z
    .string()
    .trim()
    .regex(/^1\d{10}$/, "must be an 11-digit mobile number")
    .optional(),
  title: zText({ min: 1, max: ADMIN_MESSAGE_TITLE_MAX }),
  text: zText({ min: 1, max: ADMIN_MESSAGE_TEXT_MAX, multiline: true }),
  /** English (empty: English readers see the Chinese) */
  titleEn: zText({ max: ADMIN_MESSAGE_TITLE_MAX }).default(""),
  textEn: zText({ max: ADMIN_MESSAGE_TEXT_MAX, multiline: true }).default(""),
  /** who it is from in the message centre (default 悦录) */
  sender: zText({ max: 30 }).optional(),
});
export type AdminMessageSend = z.infer<typeof ZAdminMessageSend>;

export const ZAdminMessageSent = z.object({
  notifyId: z.number().int(),
  /** false: this requestId had sent it already; nothing new was sent */
  created: z.boolean(),
});

export const ZAdminSentMessage = z.object({
  notifyId: z.number().int(),
  audience: z.enum(["all", "user"]),
  userId: z.number().int().nullable(),
  /** the addressee's phone ('' for everyone) */
  phone: z.string(),
  title: z.string(),
  text: z.string(),
  titleEn: z.string(),
  textEn: z.string(),
  sender: z.string(),
  sentAt: z.string(),
  /** users who opened it */
  reads: z.number().int(),
  /** out of: 1 for one user; for everyone, the accounts that existed when it was sent */
  recipients: z.number().int(),
});
export type AdminSentMessage = z.infer<typeof ZAdminSentMessage>;

export const ZAdminSentMessageQuery = adminPageQuery(["sentAt"] as const).extend({
  audience: z.enum(["all", "user"]).optional(),
  userId: zId.optional(),
});
export type AdminSentMessageQuery = z.infer<typeof ZAdminSentMessageQuery>;
