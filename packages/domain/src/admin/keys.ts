import { Prisma } from "@yuelu/db";
import type { Tx } from "../transaction.ts";

/**
 * What the console's create and edit calls share: how a replayed create is recognised (its natural
 * key, or a transaction-scoped lock on the client's key), and which fields an edit really changed
 * (the audit row records exactly those).
 */

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/**
 * Serialises every transaction that takes the same `key` until it commits or rolls back: a check
 * ("was this request done already?") and the write it guards become one step, however many copies
 * of the request arrive at once, on however many API processes.
 */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}::text, 0))`;
}

/** The fields of `patch` (undefined: not sent) whose value differs from `current`, before and after. */
export function changedFields<T extends object>(
  current: T,
  patch: Partial<T>,
): { before: Partial<T>; after: Partial<T>; changed: boolean } {
  const before: Partial<T> = {};
  const after: Partial<T> = {};
  for (const key of Object.keys(patch) as (keyof T)[]) {
    const value = patch[key];
    if (value === undefined || value === current[key]) continue;
    before[key] = current[key];
    after[key] = value as T[keyof T];
  }
  return { before, after, changed: Object.keys(after).length > 0 };
}

/** Whether `row` already holds every value of `wanted` (a create sent again is answered, not refused). */
export function holds<T extends object>(row: T, wanted: Partial<T>): boolean {
  return !changedFields(row, wanted).changed;
}
