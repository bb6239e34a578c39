import { type LlmBudget, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";
import { isMemberAt } from "../wallet/membership.ts";

/**
 * The daily LLM budget (docs/notes.md "Budget"): tokens per user per business day, members getting more
 * (LLM_DAILY_TOKENS / LLM_DAILY_TOKENS_MEMBER). A task reserves its estimate in the transaction that
 * creates it — one conditional update, so parallel requests never pass the cap together — and is settled
 * once when it ends: what it did not use goes back, and what it used beyond the estimate is added.
 */

type BudgetContext = Pick<DomainContext, "db" | "clock" | "config">;

export function llmDailyLimit(config: BudgetContext["config"], member: boolean): number {
  return member ? config.LLM_DAILY_TOKENS_MEMBER : config.LLM_DAILY_TOKENS;
}

/** Today's business day and the caller's cap, read before the transaction that reserves. */
export async function llmBudgetTerms(ctx: BudgetContext, userId: number): Promise<{ day: string; limit: number }> {
  const now = ctx.clock.now();
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } });
  return {
    day: businessDay(now, ctx.config.BUSINESS_TZ),
    limit: llmDailyLimit(ctx.config, isMemberAt(user?.memberEffectiveTime ?? null, now)),
  };
}

/** Takes `tokens` from the day inside the caller's transaction; over the cap: 50008 and it rolls back whole. */
export async function reserveLlmTokens(
  tx: Tx,
  userId: number,
  terms: { day: string; limit: number },
  tokens: number,
): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO llm_budget_days ("userId", day, used) VALUES (${userId}, ${terms.day}, 0)
    ON CONFLICT ("userId", day) DO NOTHING`;
  const within = await tx.$executeRaw`
    UPDATE llm_budget_days SET used = used + ${tokens}
    WHERE "userId" = ${userId} AND day = ${terms.day} AND used + ${tokens} <= ${terms.limit}`;
  if (within === 0) throw new AppError(StatusCode.LlmBudgetExceeded, { limit: terms.limit });
}

/**
 * Settles a finished (done, failed or cancelled) task once, by its settledAt: the day it reserved from
 * gets `reserved − used` back (negative: the overrun is added). Call in the transaction that ends it.
 */
export async function settleNoteTask(tx: Tx, taskId: number, now: Date): Promise<void> {
  const [row] = await tx.noteTask.updateManyAndReturn({
    where: { id: taskId, settledAt: null, budgetDay: { not: null } },
    data: { settledAt: now },
    select: { userId: true, budgetDay: true, tokensReserved: true, tokensUsed: true },
  });
  if (!row?.budgetDay) return;
  const back = row.tokensReserved - row.tokensUsed;
  if (back === 0) return;
  await tx.$executeRaw`
    UPDATE llm_budget_days SET used = GREATEST(0, used - ${back})
    WHERE "userId" = ${row.userId} AND day = ${row.budgetDay}`;
}

export async function llmBudget(ctx: BudgetContext, userId: number): Promise<LlmBudget> {
  const now = ctx.clock.now();
  const day = businessDay(now, ctx.config.BUSINESS_TZ);
  const [row, user] = await Promise.all([
    ctx.db.llmBudgetDay.findUnique({ where: { userId_day: { userId, day } } }),
    ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const member = isMemberAt(user?.memberEffectiveTime ?? null, now);
  return { used: row?.used ?? 0, limit: llmDailyLimit(ctx.config, member), member };
}
