import type { TimeCardSource } from "@yuelu/db";
import { addSeconds, SECONDS } from "../time.ts";
import type { Tx } from "../transaction.ts";

/** How long granted cards stay valid, in seconds (spec §9: bought 1 year, bean-exchanged 3 months). */
export const CARD_VALIDITY = {
  purchase: SECONDS.year,
  welcome: SECONDS.year,
  redeem: 90 * SECONDS.day,
  checkin: 90 * SECONDS.day,
  /** task rewards: like the check-in's */
  task: 90 * SECONDS.day,
  /** gift codes: an operator's present, like a bought card */
  gift: SECONDS.year,
} as const;

export interface TimeCardGrant {
  userId: number;
  seconds: number;
  /** seconds from `now` until the card expires */
  validSeconds: number;
  source: TimeCardSource;
  /** what granted it; (userId, source, refId) is unique, so a grant happens at most once */
  refId: string;
  now?: Date;
}

/**
 * Gives the user a time card of `seconds`, once per (userId, source, refId). Returns false, and
 * changes nothing, when that card was granted before. Call inside the transaction that causes it.
 */
export async function grantTimeCard(tx: Tx, grant: TimeCardGrant): Promise<boolean> {
  const { userId, seconds, validSeconds, source, refId, now = new Date() } = grant;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new Error(`time card seconds must be positive: ${seconds}`);
  const { count } = await tx.timeCard.createMany({
    data: [{ userId, seconds, remaining: seconds, expiresAt: addSeconds(now, validSeconds), source, refId }],
    skipDuplicates: true,
  });
  return count === 1;
}
