import type { Prisma } from "@yuelu/db";

/**
 * The client inside `db.$transaction(async (tx) => …)`. The grant helpers of this module take one,
 * so a grant commits (or rolls back) together with whatever caused it.
 */
export type Tx = Prisma.TransactionClient;
