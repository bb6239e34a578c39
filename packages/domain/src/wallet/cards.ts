import { type DurationCardPage, type DurationDetail, type Lang, toEpochSeconds } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { SECONDS } from "../time.ts";
import { isMemberAt } from "./membership.ts";

type Ctx = Pick<DomainContext, "db" | "clock">;

const SOURCE_NAMES: Record<string, Record<Lang, string>> = {
  purchase: { zh: "购买", en: "Purchase" },
  redeem: { zh: "悦豆兑换", en: "Bean exchange" },
  gift: { zh: "兑换码", en: "Gift code" },
  task: { zh: "任务奖励", en: "Task reward" },
  welcome: { zh: "新人礼包", en: "Welcome gift" },
  checkin: { zh: "签到奖励", en: "Check-in reward" },
};

export function cardSourceName(source: string, lang: Lang): string {
  return SOURCE_NAMES[source]?.[lang] ?? source;
}

/** get_user_duration_card_list: the user's time cards, those expiring first first; `all` includes used-up and expired ones. */
export async function durationCards(
  ctx: Ctx,
  userId: number,
  query: { page: number; pageSize: number; all: boolean },
  lang: Lang,
): Promise<DurationCardPage> {
  const now = ctx.clock.now();
  const where = { userId, ...(query.all ? {} : { expiresAt: { gt: now }, remaining: { gt: 0 } }) };
  const [total, rows] = await ctx.db.$transaction([
    ctx.db.timeCard.count({ where }),
    ctx.db.timeCard.findMany({
      where,
      orderBy: [{ expiresAt: "asc" }, { id: "asc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  return {
    total,
    list: rows.map((c) => ({
      cardId: c.id,
      seconds: c.seconds,
      remaining: c.remaining,
      source: c.source,
      sourceName: cardSourceName(c.source, lang),
      createTime: toEpochSeconds(c.createdAt),
      expireTime: toEpochSeconds(c.expiresAt),
      expired: c.expiresAt <= now,
    })),
  };
}

/** get_duration_detail: remaining, used and soon-expiring time, and where the time came from. */
export async function durationDetail(ctx: Ctx, userId: number, lang: Lang): Promise<DurationDetail> {
  const now = ctx.clock.now();
  const soon = new Date(now.getTime() + 30 * SECONDS.day * 1000);
  const [cards, user] = await Promise.all([
    ctx.db.timeCard.findMany({ where: { userId, expiresAt: { gt: now } }, orderBy: { expiresAt: "asc" } }),
    ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const bySource = new Map<string, number>();
  for (const c of cards) bySource.set(c.source, (bySource.get(c.source) ?? 0) + c.remaining);
  const sum = (f: (c: (typeof cards)[number]) => number) => cards.reduce((s, c) => s + f(c), 0);
  return {
    remaining: sum((c) => c.remaining),
    total: sum((c) => c.seconds),
    used: sum((c) => c.seconds - c.remaining),
    expiringSoon: sum((c) => (c.expiresAt <= soon ? c.remaining : 0)),
    nextExpireTime: toEpochSeconds(cards.find((c) => c.remaining > 0)?.expiresAt ?? null),
    bySource: [...bySource].map(([source, remaining]) => ({
      source,
      sourceName: cardSourceName(source, lang),
      remaining,
    })),
    isMember: isMemberAt(user.memberEffectiveTime, now),
    memberEffectiveTime: toEpochSeconds(user.memberEffectiveTime),
  };
}
