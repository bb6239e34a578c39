import {
  type AdminMessageSend,
  type AdminPage,
  type AdminSentMessage,
  type AdminSentMessageQuery,
  pageWindow,
  StatusCode,
} from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendUserMessage } from "../messages/send.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";
import { lockKey } from "./keys.ts";

/**
 * An operator's messages (docs/admin.md, "Messages"): to everyone (one broadcast row every user
 * sees, userId null) or to one user, both languages stored. The client's requestId is the key of a
 * send: it becomes the message's sourceRef 'admin:<requestId>', and a lock on it makes the check and
 * the insert one step, so the same request sends once however many copies arrive at once. (A
 * broadcast's userId is null, which the unique (userId, sourceRef) index does not cover: the lock does.)
 */

type Ctx = Pick<DomainContext, "db" | "events">;
type Send = AdminMessageSend;

const ADMIN_REF = "admin:";
const DEFAULT_SENDER = "悦录";

/** The addressee of a 'user' message: by id or by phone (exactly one), an account not deleted. */
async function addressee(ctx: Pick<DomainContext, "db">, input: Send): Promise<number | null> {
  if (input.audience === "all") {
    if (input.userId !== undefined) throw AppError.invalid("userId", "invalid value");
    if (input.phone !== undefined) throw AppError.invalid("phone", "invalid value");
    return null;
  }
  if (input.userId === undefined && input.phone === undefined) throw AppError.invalid("userId", "is required");
  if (input.userId !== undefined && input.phone !== undefined) throw AppError.invalid("phone", "invalid value");
  const user = await ctx.db.user.findFirst({
    where: { ...(input.userId !== undefined ? { id: input.userId } : { phone: input.phone }), deletedAt: null },
    select: { id: true },
  });
  if (!user) throw new AppError(StatusCode.RecordNotFound);
  return user.id;
}

export async function sendAdminMessage(
  ctx: Ctx,
  actor: AdminActor,
  input: Send,
): Promise<{ notifyId: number; created: boolean }> {
  const userId = await addressee(ctx, input);
  const sourceRef = `${ADMIN_REF}${input.requestId}`;
  return transact(ctx, async (tx) => {
    await lockKey(tx, `notify:${sourceRef}`);
    const earlier = await tx.notification.findFirst({ where: { sourceRef }, select: { notifyId: true } });
    if (earlier) return { notifyId: earlier.notifyId, created: false };
    const message = {
      title: input.title,
      text: input.text,
      titleEn: input.titleEn,
      textEn: input.textEn,
      sender: input.sender || DEFAULT_SENDER,
      sourceRef,
    };
    if (userId !== null) await sendUserMessage(tx, userId, message);
    else {
      await tx.notification.create({
        data: {
          userId: null,
          notifyTitle: message.title,
          notifyText: message.text,
          notifyTitleEn: message.titleEn,
          notifyTextEn: message.textEn,
          senderName: message.sender,
          sourceRef,
        },
      });
    }
    const row = await tx.notification.findFirstOrThrow({ where: { sourceRef }, select: { notifyId: true } });
    await audit(tx, actor, {
      action: userId === null ? "message.broadcast" : "message.send",
      target: userId === null ? "all" : `user:${userId}`,
      after: { notifyId: row.notifyId, ...message },
    });
    return { notifyId: row.notifyId, created: true };
  });
}

/**
 * What operators sent, newest first, with how many opened it: one user's message is read or not;
 * a broadcast is out of the accounts that existed (and were not deleted) when it was sent.
 */
export async function sentMessages(
  ctx: Pick<DomainContext, "db">,
  q: AdminSentMessageQuery,
): Promise<AdminPage<AdminSentMessage>> {
  const where: Prisma.NotificationWhereInput = {
    sourceRef: { startsWith: ADMIN_REF },
    ...(q.audience === "all" ? { userId: null } : q.audience === "user" ? { userId: { not: null } } : {}),
    ...(q.userId !== undefined ? { userId: q.userId } : {}),
  };
  const [rows, total] = await Promise.all([
    ctx.db.notification.findMany({
      where,
      include: { _count: { select: { reads: true } }, user: { select: { phone: true } } },
      orderBy: [{ sendTime: q.order }, { notifyId: q.order }],
      ...pageWindow(q),
    }),
    ctx.db.notification.count({ where }),
  ]);
  const items = await Promise.all(
    rows.map(async (n) => ({
      notifyId: n.notifyId,
      audience: n.userId === null ? ("all" as const) : ("user" as const),
      userId: n.userId,
      phone: n.user?.phone ?? "",
      title: n.notifyTitle,
      text: n.notifyText,
      titleEn: n.notifyTitleEn,
      textEn: n.notifyTextEn,
      sender: n.senderName,
      sentAt: n.sendTime.toISOString(),
      reads: n._count.reads,
      recipients:
        n.userId === null
          ? await ctx.db.user.count({
              where: { createdAt: { lte: n.sendTime }, OR: [{ deletedAt: null }, { deletedAt: { gt: n.sendTime } }] },
            })
          : 1,
    })),
  );
  return { items, total, page: q.page, pageSize: q.pageSize };
}
