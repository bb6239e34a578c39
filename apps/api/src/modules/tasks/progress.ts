import type { Tx } from "../wallet/tx.ts";

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
