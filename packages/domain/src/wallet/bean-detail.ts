import { type BeanDetailPage, type Lang, toEpochSeconds } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";

const REASONS: Record<string, Record<Lang, string>> = {
  checkin: { zh: "每日签到", en: "Daily check-in" },
  task: { zh: "任务奖励", en: "Task reward" },
  gift_code: { zh: "兑换码", en: "Gift code" },
  shop: { zh: "兑换商品", en: "Shop exchange" },
  seed: { zh: "系统赠送", en: "Granted" },
  /** an operator's grant in the console (docs/admin.md) */
  admin_grant: { zh: "系统赠送", en: "Granted" },
};

export function beanReasonName(reason: string, lang: Lang): string {
  return REASONS[reason]?.[lang] ?? reason;
}

/** bean_detail: the user's bean ledger, newest first (spec §2 /personalInfo?menu=coinDetail). */
export async function beanDetail(
  ctx: Pick<DomainContext, "db">,
  userId: number,
  page: { page: number; pageSize: number },
  lang: Lang,
): Promise<BeanDetailPage> {
  const [total, rows] = await ctx.db.$transaction([
    ctx.db.beanLedger.count({ where: { userId } }),
    ctx.db.beanLedger.findMany({
      where: { userId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page.page - 1) * page.pageSize,
      take: page.pageSize,
    }),
  ]);
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      amount: r.amount,
      reason: r.reason,
      reasonName: beanReasonName(r.reason, lang),
      balanceAfter: r.balanceAfter,
      createTime: toEpochSeconds(r.createdAt),
    })),
  };
}
