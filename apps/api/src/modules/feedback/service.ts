import { randomUUID } from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import {
  FEEDBACK_IMAGE_BYTES,
  FEEDBACK_IMAGES_MAX,
  type FeedbackCategory,
  type Lang,
  ZFeedbackFields,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyRequest } from "fastify";
import { readImage } from "../../lib/images.ts";

/** Feedback (spec §7 feedback/*; docs/engagement.md): categories and reports with screenshots. */

export async function categories(db: Db, lang: Lang): Promise<FeedbackCategory[]> {
  const rows = await db.feedbackCategory.findMany({ orderBy: [{ level: "asc" }, { sort: "asc" }, { id: "asc" }] });
  return rows.map((c) => ({ id: c.id, name: lang === "en" ? c.nameEn : c.name, parentId: c.parentId, level: c.level }));
}

/**
 * Stores one screenshot: only PNG, JPEG, WebP or GIF by their content (not their name), at most
 * FEEDBACK_IMAGE_BYTES; answers its file-store key. A refused image leaves nothing behind.
 */
async function storeImage(files: FileStore, file: Readable & { truncated?: boolean }): Promise<string> {
  const { body, ext } = await readImage(file, { field: "images", maxBytes: FEEDBACK_IMAGE_BYTES });
  const key = `feedback/${randomUUID()}.${ext}`;
  const stream = new PassThrough();
  stream.end(body);
  await files.put(key, stream);
  return key;
}

/**
 * feedback/add: the category, the text, a contact, and up to 3 screenshots (multipart field
 * `images`; JSON and forms without images work too). Stored for operators; the images in the file
 * store. Any refusal removes the images already stored.
 */
export async function addFeedback(
  deps: { db: Db; files: FileStore },
  request: FastifyRequest,
  userId: number | null,
): Promise<{ id: number; images: number }> {
  const stored: string[] = [];
  try {
    let fields: Record<string, unknown> = (request.body as Record<string, unknown> | undefined) ?? {};
    if (request.isMultipart()) {
      fields = { ...(request.query as Record<string, unknown>) };
      const parts = request.parts({
        limits: { files: FEEDBACK_IMAGES_MAX, fileSize: FEEDBACK_IMAGE_BYTES, fields: 10, fieldSize: 64 * 1024 },
      });
      for await (const part of parts) {
        if (part.type === "file") {
          // only the screenshots field holds images; a file under any other name is not stored
          if (part.fieldname !== "images" && part.fieldname !== "images[]") {
            await drainPart(part.file);
            throw AppError.invalid(part.fieldname, "only the images field takes files");
          }
          stored.push(await storeImage(deps.files, part.file));
        } else fields[part.fieldname] = part.value;
      }
    }
    const parsed = ZFeedbackFields.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw AppError.invalid(String(issue?.path[0] ?? "body"), issue?.message);
    }
    const category = await deps.db.feedbackCategory.findUnique({ where: { id: parsed.data.categoryId } });
    if (!category) throw AppError.invalid("categoryId", "not one of the listed options");
    const row = await deps.db.feedback.create({
      data: {
        userId,
        categoryId: category.id,
        content: parsed.data.content,
        contact: parsed.data.contact ?? "",
        images: stored,
      },
    });
    return { id: row.id, images: stored.length };
  } catch (error) {
    await Promise.all(stored.map((key) => deps.files.delete(key).catch(() => {})));
    if ((error as { code?: string }).code === "FST_FILES_LIMIT") {
      throw AppError.invalid("images", `at most ${FEEDBACK_IMAGES_MAX} images`);
    }
    throw error;
  }
}

/** Reads what is left of a refused file part, so the answer reaches the client. */
function drainPart(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream.once("end", resolve);
    stream.once("error", () => resolve());
    stream.resume();
  });
}
