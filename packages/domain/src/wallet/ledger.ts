import { BEAN_BALANCE_MAX, StatusCode } from "@yuelu/contracts";
import { AppError } from "../errors.ts";
import type { Tx } from "../transaction.ts";

/**
 * The bean ledger (ARCHITECTURE §5). Every change of a balance is one append-only bean_ledger row,
 * unique on (userId, reason, refId), written in the same transaction as the matching change of the
 * cached users.beanBalance — so the cache always equals the ledger sum, and a key is posted at most
 * once however often (or however concurrently) it is tried.
 *
 * Reasons in use: 'checkin' (refId: the business day 'YYYY-MM-DD').
 */

export interface Posting {
  /** false: the key was posted before (a replay), nothing changed */
  applied: boolean;
  /** the balance after this call */
  balance: number;
}

/** Adds `amount` (> 0) beans, once per (userId, reason, refId). Call inside a transaction. */
export function grantBeans(tx: Tx, userId: number, amount: number, reason: string, refId: string): Promise<Posting> {
  assertAmount(amount);
  return post(tx, userId, amount, reason, refId);
}

/**
 * Takes `amount` (> 0) beans, once per (userId, reason, refId); throws 60001 (not enough beans) and
 * changes nothing when the balance is smaller. Call inside a transaction.
 */
export function spendBeans(tx: Tx, userId: number, amount: number, reason: string, refId: string): Promise<Posting> {
  assertAmount(amount);
  return post(tx, userId, -amount, reason, refId);
}

function assertAmount(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > BEAN_BALANCE_MAX)
    throw new Error(`bean amount must be a positive integer: ${amount}`);
}

async function post(tx: Tx, userId: number, amount: number, reason: string, refId: string): Promise<Posting> {
  // The user's row is locked FOR UPDATE first, so postings for one user take turns and balanceAfter
  // is exact; the unique key turns a replay into a no-op (ON CONFLICT), and a spend beyond the
  // balance inserts nothing (the CHECK on users.beanBalance would refuse it anyway).
  // The sum is taken in 64 bits: a grant that would pass BEAN_BALANCE_MAX inserts nothing (60011 below).
  const inserted = await tx.$queryRaw<{ balanceAfter: number }[]>`
    INSERT INTO bean_ledger ("userId", amount, reason, "refId", "balanceAfter")
    SELECT u.id, ${amount}::int, ${reason}, ${refId}, (u."beanBalance"::bigint + ${amount}::bigint)::int
    FROM (SELECT id, "beanBalance" FROM users WHERE id = ${userId}::int FOR UPDATE) u
    WHERE u."beanBalance"::bigint + ${amount}::bigint BETWEEN 0 AND ${BEAN_BALANCE_MAX}::bigint
    ON CONFLICT ("userId", reason, "refId") DO NOTHING
    RETURNING "balanceAfter"`;
  const row = inserted[0];
  if (row) {
    await tx.$executeRaw`
      UPDATE users SET "beanBalance" = "beanBalance" + ${amount}::int, "updatedAt" = now() WHERE id = ${userId}::int`;
    return { applied: true, balance: row.balanceAfter };
  }
  // Nothing inserted: the key was posted before, or a spend exceeds the balance (or no such user).
  const user = await tx.user.findUnique({ where: { id: userId }, select: { beanBalance: true } });
  if (!user) throw new Error(`bean posting for unknown user ${userId}`);
  const posted = await tx.beanLedger.findUnique({
    where: { userId_reason_refId: { userId, reason, refId } },
    select: { id: true },
  });
  if (posted) return { applied: false, balance: user.beanBalance };
  throw new AppError(amount > 0 ? StatusCode.BeanBalanceFull : StatusCode.NotEnoughBeans);
}
