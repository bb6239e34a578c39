import { type Lang, type Message, StatusCode, toEpochSeconds } from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { noticeItems } from "./notices.ts";

/**
 * The message centre (spec §4 Messages): the user's own messages and broadcasts to everyone, newest
 * first, in the reader's language (the Chinese text when a message has no English one).
 */

type Ctx = Pick<DomainContext, "db" | "config">;

const visibleTo = (userId: number): Prisma.NotificationWhereInput => ({ OR: [{ userId }, { userId: null }] });

function timeStr(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).format(date);
}

/** notify/get_list: readSign -1/absent all, 0 unread only, 1 read only. */
export async function messageList(
  ctx: Ctx,
  userId: number,
  query: { page: number; pageSize: number; readSign?: number },
  lang: Lang,
): Promise<Message[]> {
  const read = { reads: { some: { userId } } };
  const unread = { reads: { none: { userId } } };
  const filter = query.readSign === 0 ? unread : query.readSign === 1 ? read : {};
  const rows = await ctx.db.notification.findMany({
    where: { AND: [visibleTo(userId), filter] },
    include: { reads: { where: { userId }, select: { userId: true } } },
    orderBy: [{ sendTime: "desc" }, { notifyId: "desc" }],
    skip: (query.page - 1) * query.pageSize,
    take: query.pageSize,
  });
  return rows.map((n) => ({
    notifyId: n.notifyId,
    notifyTitle: lang === "en" && n.notifyTitleEn ? n.notifyTitleEn : n.notifyTitle,
    notifyText: lang === "en" && n.notifyTextEn ? n.notifyTextEn : n.notifyText,
    notifyRead: n.reads.length > 0 ? 1 : 0,
    senderName: lang === "en" && n.senderName === "悦录" ? "Yuelu" : n.senderName,
    sendTimeStr: timeStr(n.sendTime, ctx.config.BUSINESS_TZ),
    sendTime: toEpochSeconds(n.sendTime),
    items: noticeItems(n.items).map((item) => ({
      title: lang === "en" ? item.titleEn : item.title,
      text: lang === "en" ? item.lineEn : item.line,
      sendTime: item.at,
    })),
  }));
}

/** Messages addressed to the user or broadcast, that the user has not read. */
export function unreadCount(ctx: Pick<DomainContext, "db">, userId: number): Promise<number> {
  return ctx.db.notification.count({ where: { AND: [visibleTo(userId), { reads: { none: { userId } } }] } });
}

/** read_msg: marks one message read (idempotent); another user's message is 30001. */
export async function readMessage(ctx: Ctx, userId: number, notifyId: number) {
  const message = await ctx.db.notification.findFirst({ where: { AND: [{ notifyId }, visibleTo(userId)] } });
  if (!message) throw new AppError(StatusCode.RecordNotFound);
  const { count } = await ctx.db.notificationRead.createMany({ data: [{ userId, notifyId }], skipDuplicates: true });
  return { read: count, unreadSize: await unreadCount(ctx, userId) };
}

/** read_all_msg: marks every message the user can see read. */
export async function readAllMessages(ctx: Ctx, userId: number) {
  const unread = await ctx.db.notification.findMany({
    where: { AND: [visibleTo(userId), { reads: { none: { userId } } }] },
    select: { notifyId: true },
  });
  const { count } = await ctx.db.notificationRead.createMany({
    data: unread.map((n) => ({ userId, notifyId: n.notifyId })),
    skipDuplicates: true,
  });
  return { read: count, unreadSize: await unreadCount(ctx, userId) };
}

export interface Broadcast {
  title: string;
  text: string;
  titleEn?: string;
  textEn?: string;
  sender?: string;
  /** one user (by id); absent: everyone */
  userId?: number;
}

/** An operator's message (`npm run admin -- broadcast …`): to one user, or to everyone. */
export async function broadcast(ctx: Pick<DomainContext, "db">, message: Broadcast): Promise<number> {
  if (message.userId !== undefined) {
    const user = await ctx.db.user.findFirst({ where: { id: message.userId, deletedAt: null } });
    if (!user) throw new Error(`no user ${message.userId}`);
  }
  const row = await ctx.db.notification.create({
    data: {
      userId: message.userId ?? null,
      notifyTitle: message.title,
      notifyText: message.text,
      notifyTitleEn: message.titleEn ?? "",
      notifyTextEn: message.textEn ?? "",
      senderName: message.sender ?? "悦录",
    },
  });
  return row.notifyId;
}
