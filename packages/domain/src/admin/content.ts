import {
  type AdminFeedback,
  type AdminFeedbackQuery,
  type AdminHelpCreate,
  type AdminHelpDoc,
  type AdminHelpEdit,
  type AdminHelpQuery,
  type AdminPage,
  pageWindow,
  StatusCode,
} from "@yuelu/contracts";
import type { FeedbackModel, Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendUserMessage } from "../messages/send.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";
import { changedFields, holds, isUniqueViolation } from "./keys.ts";

/**
 * Help documents and feedback in the console (docs/admin.md, "Help documents", "Feedback"). A help
 * document is stored as the operator typed it; the help page shows it as text (apps/web
 * features/help: React text nodes, never HTML), so markup in it is shown, never run.
 */

type Ctx = Pick<DomainContext, "db" | "events" | "clock">;

// ── help documents ──

export async function helpDocs(ctx: Pick<DomainContext, "db">, q: AdminHelpQuery): Promise<AdminPage<AdminHelpDoc>> {
  const where: Prisma.HelpDocumentWhereInput = q.q
    ? {
        OR: [
          { slug: { contains: q.q, mode: "insensitive" } },
          { title: { contains: q.q, mode: "insensitive" } },
          { titleEn: { contains: q.q, mode: "insensitive" } },
        ],
      }
    : {};
  const [items, total] = await Promise.all([
    ctx.db.helpDocument.findMany({ where, orderBy: [{ [q.sort]: q.order }, { id: "asc" }], ...pageWindow(q) }),
    ctx.db.helpDocument.count({ where }),
  ]);
  return { items, total, page: q.page, pageSize: q.pageSize };
}

export async function helpDoc(ctx: Pick<DomainContext, "db">, id: number): Promise<AdminHelpDoc> {
  const doc = await ctx.db.helpDocument.findUnique({ where: { id } });
  if (!doc) throw new AppError(StatusCode.RecordNotFound);
  return doc;
}

/**
 * A new document. Its slug is the natural key of the create: the same document sent again answers
 * the existing one (no second audit row); another document under a taken slug is 10002 slug.
 */
export async function createHelpDoc(ctx: Ctx, actor: AdminActor, input: AdminHelpCreate): Promise<AdminHelpDoc> {
  const replayOrTaken = async () => {
    const existing = await ctx.db.helpDocument.findUnique({ where: { slug: input.slug } });
    if (existing && holds(existing, input)) return existing;
    if (existing) throw AppError.invalid("slug", "already used by another document");
    return null;
  };
  const earlier = await replayOrTaken();
  if (earlier) return earlier;
  try {
    return await transact(ctx, async (tx) => {
      const doc = await tx.helpDocument.create({ data: input });
      await audit(tx, actor, { action: "help.create", target: `help:${doc.id}`, after: doc });
      return doc;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await replayOrTaken();
    if (raced) return raced;
    throw error;
  }
}

export async function editHelpDoc(ctx: Ctx, actor: AdminActor, id: number, edit: AdminHelpEdit): Promise<AdminHelpDoc> {
  try {
    return await transact(ctx, async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM help_documents WHERE id = ${id}::int FOR UPDATE`;
      const current = await tx.helpDocument.findUnique({ where: { id } });
      if (!current) throw new AppError(StatusCode.RecordNotFound);
      const { before, after, changed } = changedFields(current, edit);
      if (!changed) return current;
      const doc = await tx.helpDocument.update({ where: { id }, data: after });
      await audit(tx, actor, { action: "help.update", target: `help:${id}`, before, after });
      return doc;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.invalid("slug", "already used by another document");
    throw error;
  }
}

/** Deletes a document; one already gone answers deleted: false (a double click is no error). */
export async function deleteHelpDoc(ctx: Ctx, actor: AdminActor, id: number): Promise<{ deleted: boolean }> {
  return transact(ctx, async (tx) => {
    const doc = await tx.helpDocument.findUnique({ where: { id } });
    const { count } = await tx.helpDocument.deleteMany({ where: { id } });
    if (!doc || count === 0) return { deleted: false };
    await audit(tx, actor, { action: "help.delete", target: `help:${id}`, before: doc });
    return { deleted: true };
  });
}

// ── feedback ──

/** Where an admin opens the i-th screenshot of a feedback (the admin scope serves it). */
export function feedbackImagePath(feedbackId: number, index: number): string {
  return `/voice_yuelu/admin/feedback/${feedbackId}/images/${index}`;
}

type FeedbackRow = FeedbackModel & { user: { phone: string | null; nickName: string } | null };

/** Every category as the user chose it: 'parent / child' (Chinese names, as operators read them). */
async function categoryNames(ctx: Pick<DomainContext, "db">): Promise<Map<number, string>> {
  const all = await ctx.db.feedbackCategory.findMany();
  const byId = new Map(all.map((c) => [c.id, c]));
  return new Map(
    all.map((c) => {
      const parent = c.parentId ? byId.get(c.parentId) : undefined;
      return [c.id, parent ? `${parent.name} / ${c.name}` : c.name];
    }),
  );
}

function feedbackView(f: FeedbackRow, categories: Map<number, string>): AdminFeedback {
  return {
    id: f.id,
    userId: f.userId,
    phone: f.user?.phone ?? "",
    nickName: f.user?.nickName ?? "",
    categoryId: f.categoryId,
    category: categories.get(f.categoryId) ?? "",
    content: f.content,
    contact: f.contact,
    images: f.images.map((_key, i) => feedbackImagePath(f.id, i)),
    createdAt: f.createdAt.toISOString(),
    handledAt: f.handledAt?.toISOString() ?? null,
    reply: f.reply,
  };
}

const withUser = { user: { select: { phone: true, nickName: true } } } as const;

export async function feedbackList(
  ctx: Pick<DomainContext, "db">,
  q: AdminFeedbackQuery,
): Promise<AdminPage<AdminFeedback>> {
  const where: Prisma.FeedbackWhereInput = {
    ...(q.handled === true ? { handledAt: { not: null } } : q.handled === false ? { handledAt: null } : {}),
    ...(q.categoryId !== undefined ? { categoryId: q.categoryId } : {}),
    ...(q.userId !== undefined ? { userId: q.userId } : {}),
  };
  const [rows, total, categories] = await Promise.all([
    ctx.db.feedback.findMany({
      where,
      include: withUser,
      orderBy: [{ [q.sort]: q.order }, { id: q.order }],
      ...pageWindow(q),
    }),
    ctx.db.feedback.count({ where }),
    categoryNames(ctx),
  ]);
  return { items: rows.map((f) => feedbackView(f, categories)), total, page: q.page, pageSize: q.pageSize };
}

export async function feedbackItem(ctx: Pick<DomainContext, "db">, id: number): Promise<AdminFeedback> {
  const row = await ctx.db.feedback.findUnique({ where: { id }, include: withUser });
  if (!row) throw new AppError(StatusCode.RecordNotFound);
  return feedbackView(row, await categoryNames(ctx));
}

/** The file-store key of a feedback's i-th screenshot; unknown feedback or index → 20003. */
export async function feedbackImageKey(ctx: Pick<DomainContext, "db">, id: number, index: number): Promise<string> {
  const row = await ctx.db.feedback.findUnique({ where: { id }, select: { images: true } });
  const key = row?.images[index];
  if (!key) throw new AppError(StatusCode.FileNotFound);
  return key;
}

/** Marks a feedback handled (or not handled again). Unknown → 30001. */
export async function markFeedbackHandled(
  ctx: Ctx,
  actor: AdminActor,
  id: number,
  handled: boolean,
): Promise<AdminFeedback> {
  await transact(ctx, async (tx) => {
    const row = await tx.feedback.findUnique({ where: { id } });
    if (!row) throw new AppError(StatusCode.RecordNotFound);
    const { count } = await tx.feedback.updateMany({
      where: { id, handledAt: handled ? null : { not: null } },
      data: { handledAt: handled ? ctx.clock.now() : null },
    });
    if (count > 0) {
      await audit(tx, actor, {
        action: handled ? "feedback.handle" : "feedback.unhandle",
        target: `feedback:${id}`,
        before: { handledAt: row.handledAt },
        after: { handled },
      });
    }
  });
  return feedbackItem(ctx, id);
}

function excerpt(text: string, chars = 30): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
}

/**
 * Replies to a feedback: the reply goes to the user's message centre (sourceRef 'feedback:<id>',
 * one message per feedback) and the feedback is marked handled, in one transaction that holds the
 * feedback's row, so parallel replies send one message. The same reply again answers sent: false;
 * a different second reply is 10002 text. A visitor's feedback (no account) keeps the reply and is
 * marked handled, with nobody to message (sent: false): the contact they left is how to reach them.
 */
export async function replyFeedback(
  ctx: Ctx,
  actor: AdminActor,
  id: number,
  input: { text: string; textEn: string },
): Promise<{ feedback: AdminFeedback; sent: boolean }> {
  const sent = await transact(ctx, async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM feedback WHERE id = ${id}::int FOR UPDATE`;
    const row = await tx.feedback.findUnique({ where: { id } });
    if (!row) throw new AppError(StatusCode.RecordNotFound);
    if (row.reply !== "") {
      if (row.reply === input.text) return false;
      throw AppError.invalid("text", "already replied");
    }
    const quoted = excerpt(row.content);
    const delivered =
      row.userId !== null &&
      (await sendUserMessage(tx, row.userId, {
        title: "反馈回复",
        text: `您的反馈「${quoted}」已处理：\n${input.text}`,
        titleEn: "Reply to your feedback",
        textEn: input.textEn ? `Your feedback “${quoted}” was handled:\n${input.textEn}` : "",
        sourceRef: `feedback:${id}`,
      }));
    const handledAt = row.handledAt ?? ctx.clock.now();
    await tx.feedback.update({ where: { id }, data: { reply: input.text, handledAt } });
    await audit(tx, actor, {
      action: "feedback.reply",
      target: `feedback:${id}`,
      before: { handledAt: row.handledAt, reply: row.reply },
      after: { handledAt, reply: input.text, replyEn: input.textEn, messaged: delivered },
    });
    return delivered;
  });
  return { feedback: await feedbackItem(ctx, id), sent };
}
