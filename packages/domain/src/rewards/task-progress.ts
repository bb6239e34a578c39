import type { DomainContext } from "../context.ts";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";

/**
 * Advances the user's progress by `amount` on every enabled task whose action is one of `actions` (see
 * challenge_tasks.action: 'checkin', 'checkin_days', 'transcribe', ...), capped at the task's
 * progressFinish: daily tasks (challengeType 0) in the period `today` ('YYYY-MM-DD', business time
 * zone), challenges (1) in the period 'once'. One upsert on the unique (userId, challengeId, period).
 * Call it inside the transaction of the event that counts, so the event and its progress commit
 * together and happen exactly as often.
 */
export async function advanceTasks(
  tx: Tx,
  userId: number,
  actions: string | string[],
  amount: number,
  today: string,
): Promise<void> {
  if (!Number.isSafeInteger(amount) || amount <= 0) return;
  const list = [actions].flat();
  await tx.$executeRaw`
    INSERT INTO task_progress ("userId", "challengeId", period, "progressAmount")
    SELECT ${userId}::int, t."challengeId",
           CASE WHEN t."challengeType" = 0 THEN ${today}::text ELSE 'once' END,
           LEAST(${amount}::int, t."progressFinish")
    FROM challenge_tasks t
    WHERE t.action = ANY(${list}::text[]) AND t.enabled
    ON CONFLICT ("userId", "challengeId", period) DO UPDATE
    SET "progressAmount" = LEAST(
      task_progress."progressAmount" + ${amount}::int,
      (SELECT c."progressFinish" FROM challenge_tasks c WHERE c."challengeId" = EXCLUDED."challengeId"))`;
}

/**
 * Counts one event (an export, ...) for the user's tasks of today, in its own transaction: for events
 * that are not themselves a database change. A failure here is the caller's to log, never the user's.
 */
export async function countTaskEvent(
  ctx: Pick<DomainContext, "db" | "clock" | "config">,
  userId: number,
  action: string,
  amount = 1,
): Promise<void> {
  const today = businessDay(ctx.clock.now(), ctx.config.BUSINESS_TZ);
  await ctx.db.$transaction((tx) => advanceTasks(tx, userId, action, amount, today));
}
