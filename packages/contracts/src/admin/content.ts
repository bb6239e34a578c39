import { z } from "zod";
import { zFlag, zId, zInt, zText } from "../common.ts";
import { FEEDBACK_TEXT_MAX } from "../limits.ts";
import { adminPageQuery } from "./common.ts";

/**
 * Contracts of /voice_yuelu/admin/help and /voice_yuelu/admin/feedback (docs/admin.md, "Help
 * documents", "Feedback"). A help document's text is Markdown; the help page renders it safely
 * (components/markdown-text.tsx: raw HTML shown as text, script links dropped), so markup in it never runs.
 */

export const ADMIN_HELP_TITLE_MAX = 100;
export const ADMIN_HELP_CONTENT_MAX = 20_000;

/** The slugs the public help calls accept (help_document/get?slug=…). */
export const zHelpSlug = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(64, "at most 64 characters")
  .regex(/^[a-z0-9-]+$/, "lowercase letters, digits and - only");

export const ZAdminHelpDoc = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  titleEn: z.string(),
  content: z.string(),
  contentEn: z.string(),
  sort: z.number().int(),
});
export type AdminHelpDoc = z.infer<typeof ZAdminHelpDoc>;

export const ZAdminHelpQuery = adminPageQuery(["sort", "id", "slug"] as const).extend({
  /** part of the slug or of either title */
  q: z.string().trim().max(60).optional(),
});
export type AdminHelpQuery = z.infer<typeof ZAdminHelpQuery>;

const helpFields = {
  slug: zHelpSlug,
  title: zText({ min: 1, max: ADMIN_HELP_TITLE_MAX }),
  titleEn: zText({ min: 1, max: ADMIN_HELP_TITLE_MAX }),
  content: zText({ min: 1, max: ADMIN_HELP_CONTENT_MAX, multiline: true }),
  contentEn: zText({ min: 1, max: ADMIN_HELP_CONTENT_MAX, multiline: true }),
  sort: zInt.pipe(z.number().int().min(-100_000).max(100_000)),
};

/** Create: the slug is the natural key; the same document again answers it, another under a taken slug is 10002 slug. */
export const ZAdminHelpCreate = z.object({ ...helpFields, sort: helpFields.sort.default(0) });
export type AdminHelpCreate = z.infer<typeof ZAdminHelpCreate>;
export const ZAdminHelpEdit = z.object({
  slug: helpFields.slug.optional(),
  title: helpFields.title.optional(),
  titleEn: helpFields.titleEn.optional(),
  content: helpFields.content.optional(),
  contentEn: helpFields.contentEn.optional(),
  sort: helpFields.sort.optional(),
});
export type AdminHelpEdit = z.infer<typeof ZAdminHelpEdit>;
export const ZAdminContentIdParams = z.object({ id: zId });
export const ZAdminHelpDeleted = z.object({ deleted: z.boolean() });

// ── feedback ──

export const ZAdminFeedback = z.object({
  id: z.number().int(),
  /** null: sent by a visitor who was not signed in (no message centre to reply to) */
  userId: z.number().int().nullable(),
  phone: z.string(),
  nickName: z.string(),
  categoryId: z.number().int(),
  /** the category as the user chose it, e.g. '问题反馈 / 上传失败' */
  category: z.string(),
  content: z.string(),
  contact: z.string(),
  /** the screenshots, each an admin address (GET, the image itself) */
  images: z.array(z.string()),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  /** the operator's reply ('' none yet); it went to the user's message centre */
  reply: z.string(),
});
export type AdminFeedback = z.infer<typeof ZAdminFeedback>;

export const ZAdminFeedbackQuery = adminPageQuery(["createdAt", "id"] as const).extend({
  handled: zFlag.optional(),
  categoryId: zId.optional(),
  userId: zId.optional(),
});
export type AdminFeedbackQuery = z.infer<typeof ZAdminFeedbackQuery>;

export const ZAdminFeedbackImageParams = z.object({
  id: zId,
  index: z.coerce.number().int().min(0).max(9),
});

export const ZAdminFeedbackHandle = z.object({ handled: zFlag.default(true) });

/**
 * Reply: goes to the user's message centre once per feedback (the feedback is its key), and marks it
 * handled. Sending the same reply again answers `sent: false`; a different second reply is 10002 text.
 */
export const ZAdminFeedbackReply = z.object({
  text: zText({ min: 1, max: FEEDBACK_TEXT_MAX, multiline: true }),
  /** English for an English reader ('' shows the Chinese) */
  textEn: zText({ max: FEEDBACK_TEXT_MAX, multiline: true }).default(""),
});
export const ZAdminFeedbackReplied = z.object({
  feedback: ZAdminFeedback,
  /** a message went to the user's message centre on this call */
  sent: z.boolean(),
});
