import type { Tx } from "../transaction.ts";

/**
 * Extends the user's membership by `seconds`: from its current end while it is still running, else
 * from `now`. One conditional UPDATE, so concurrent extensions add up instead of overwriting each
 * other. Exactly-once is the caller's part (grant it in the transaction that records why, under a
 * unique key). Writes `users`: announce "user.changed" for the commit. Returns the new end.
 */
export async function extendMembership(tx: Tx, userId: number, seconds: number, now = new Date()): Promise<Date> {
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new Error(`membership seconds must be positive: ${seconds}`);
  const [row] = await tx.$queryRaw<{ until: Date }[]>`
    UPDATE users
    SET "memberEffectiveTime" = GREATEST(${now}::timestamp(3), COALESCE("memberEffectiveTime", ${now}::timestamp(3)))
                                + make_interval(secs => ${seconds}::double precision),
        "updatedAt" = ${now}::timestamp(3)
    WHERE id = ${userId}::int
    RETURNING "memberEffectiveTime" AS until`;
  if (!row) throw new Error(`membership for unknown user ${userId}`);
  return row.until;
}

/** A member while memberEffectiveTime is in the future (spec §6); it lapses on its own at that instant. */
export function isMemberAt(memberEffectiveTime: Date | null, now: Date): boolean {
  return memberEffectiveTime !== null && memberEffectiveTime.getTime() > now.getTime();
}
