import { z } from "zod";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";

/**
 * Routine notices (issue 43): a finished transcription, a purchase's receipt. They are not each a
 * message: a user's notices of one kind and one business day are one message, the events listed
 * inside, newest first. Each new event is appended to it in the transaction of the event, the
 * message is dated at that event and is unread again. Failures and what the user must act on
 * (send.ts) stay messages of their own.
 *
 * The message's key is (userId, sourceRef 'notice:<kind>:<yyyy-MM-dd>'), unique: two events that
 * finish at once insert one row — the second's insert waits on the first's and then finds it — and
 * take turns on its row lock to append, so neither's event is lost. An event already listed (by its
 * ref) changes nothing: a repeated event is noticed once.
 */
export type NoticeKind = "transcribed" | "purchase";

/** One event of a notice, in both languages: the line the message lists it by. */
export interface NoticeItem {
  /** what it was ('transcription:<taskId>', 'order:<orderNumber>'…): listed once however often it repeats */
  ref: string;
  /** when it happened */
  at: Date;
  /** the message's title and text while it is the day's only event */
  title: string;
  titleEn: string;
  text: string;
  textEn: string;
  /** its line in the list of several (absent: its text) */
  line?: string;
  lineEn?: string;
}

/** The message's `items` column, as stored: `at` in epoch seconds. */
const ZStoredItem = z.object({
  ref: z.string(),
  at: z.number(),
  title: z.string(),
  titleEn: z.string(),
  text: z.string(),
  textEn: z.string(),
  line: z.string(),
  lineEn: z.string(),
});
export type StoredNoticeItem = z.infer<typeof ZStoredItem>;
const ZStoredItems = z.array(ZStoredItem).catch([]);

/** The stored items of a message's `items` column, newest first; [] for a message that is not a notice. */
export function noticeItems(value: unknown): StoredNoticeItem[] {
  if (value === null || value === undefined) return [];
  return [...ZStoredItems.parse(value)].sort((a, b) => b.at - a.at);
}

/** A notice's text lists at most this many events; the rest are counted (the items list keeps them all). */
const MAX_LINES = 30;

interface Heading {
  title: string;
  titleEn: string;
  /** the summary line, above the listed events */
  text: string;
  textEn: string;
}

/** What a notice of several events says above its list. One event: the event's own words. */
const HEADINGS: Record<NoticeKind, (count: number) => Heading> = {
  transcribed: (count) => ({
    title: "转写完成",
    titleEn: "Transcriptions finished",
    text: `今天已有 ${count} 条记录转写完成，可在“我的记录”中查看和编辑：`,
    textEn: `${count} recordings were transcribed today: open them from My records to read and edit them.`,
  }),
  purchase: (count) => ({
    title: "今日购买",
    titleEn: "Today's purchases",
    text: `今天有 ${count} 笔购买和兑换已到账：`,
    textEn: `${count} purchases were added today:`,
  }),
};

function lines(items: StoredNoticeItem[], text: (item: StoredNoticeItem) => string, more: (n: number) => string) {
  const shown = items.slice(0, MAX_LINES).map(text);
  if (items.length > MAX_LINES) shown.push(more(items.length - MAX_LINES));
  return shown.join("\n");
}

/** The message of a notice's items (newest first): the summary line, then one line per event. */
export function noticeMessage(kind: NoticeKind, items: StoredNoticeItem[]): Heading {
  const [only] = items;
  if (items.length === 1 && only) {
    return { title: only.title, titleEn: only.titleEn, text: only.text, textEn: only.textEn };
  }
  const heading = HEADINGS[kind](items.length);
  return {
    title: heading.title,
    titleEn: heading.titleEn,
    text: `${heading.text}\n${lines(
      items,
      (i) => i.line,
      (n) => `……另有 ${n} 条`,
    )}`,
    textEn: `${heading.textEn}\n${lines(
      items,
      (i) => i.lineEn,
      (n) => `… and ${n} more`,
    )}`,
  };
}

/** The message's columns for its items. */
function columns(kind: NoticeKind, items: StoredNoticeItem[]) {
  const m = noticeMessage(kind, items);
  return { notifyTitle: m.title, notifyTitleEn: m.titleEn, notifyText: m.text, notifyTextEn: m.textEn, items };
}

const stored = (item: NoticeItem): StoredNoticeItem => ({
  ref: item.ref,
  at: Math.floor(item.at.getTime() / 1000),
  title: item.title,
  titleEn: item.titleEn,
  text: item.text,
  textEn: item.textEn,
  line: item.line ?? item.text,
  lineEn: item.lineEn ?? item.textEn,
});

/**
 * Adds the event to the user's notice of its kind and business day (in `timeZone`), creating the
 * notice with the day's first event. Returns false when the event was listed already.
 */
export async function sendNotice(
  tx: Tx,
  userId: number,
  kind: NoticeKind,
  item: NoticeItem,
  timeZone: string,
): Promise<boolean> {
  const sourceRef = `notice:${kind}:${businessDay(item.at, timeZone)}`;
  const first = [stored(item)];
  const { count } = await tx.notification.createMany({
    data: [{ userId, ...columns(kind, first), senderName: "悦录", sourceRef, sendTime: item.at }],
    skipDuplicates: true,
  });
  if (count === 1) return true;
  // The day's notice exists (perhaps just committed by a parallel event): append under its row lock.
  const [locked] = await tx.$queryRaw<{ notifyId: number }[]>`
    SELECT "notifyId" FROM notifications WHERE "userId" = ${userId}::int AND "sourceRef" = ${sourceRef} FOR UPDATE`;
  if (!locked) throw new Error(`notice ${sourceRef} of user ${userId} vanished`);
  // read after the lock: the latest committed items (READ COMMITTED takes a new snapshot per statement)
  const row = await tx.notification.findUniqueOrThrow({ where: { notifyId: locked.notifyId } });
  const items = noticeItems(row.items);
  if (items.some((i) => i.ref === item.ref)) return false;
  const all = noticeItems([...items, stored(item)]);
  await tx.notification.update({
    where: { notifyId: row.notifyId },
    data: {
      ...columns(kind, all),
      // dated at its latest event (an event reported late never dates it back)
      sendTime: row.sendTime > item.at ? row.sendTime : item.at,
    },
  });
  // news: unread again
  await tx.notificationRead.deleteMany({ where: { notifyId: row.notifyId, userId } });
  return true;
}
