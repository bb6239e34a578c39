import { type DeleteAccountStatus, toEpochSeconds } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { addSeconds, SECONDS } from "../time.ts";
import { userChanged } from "../transaction.ts";

/**
 * Account deletion (spec §4 After login): it takes effect at once — every call answers 10006 but
 * the status and its cancellation — and the account is purged after ACCOUNT_DELETION_GRACE_DAYS.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

/** Whether a deletion requested at `requestedAt` has come due at `now`. */
export function deletionDue(requestedAt: Date | null, graceDays: number, now: Date): boolean {
  return requestedAt !== null && addSeconds(requestedAt, graceDays * SECONDS.day) <= now;
}

export async function deletionStatus(ctx: Ctx, userId: number): Promise<DeleteAccountStatus> {
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { deleteRequestedAt: true } });
  const at = user.deleteRequestedAt;
  return {
    status: at ? 1 : 0,
    deleteTime: toEpochSeconds(at),
    purgeTime: at ? toEpochSeconds(addSeconds(at, ctx.config.ACCOUNT_DELETION_GRACE_DAYS * SECONDS.day)) : 0,
  };
}

/** Starts the deletion; a second request keeps the first date (and so the purge date). Cached sessions start answering 10006. */
export async function requestDeletion(ctx: Ctx, userId: number): Promise<DeleteAccountStatus> {
  await ctx.db.user.updateMany({
    where: { id: userId, deleteRequestedAt: null },
    data: { deleteRequestedAt: ctx.clock.now() },
  });
  await userChanged(ctx, userId);
  return deletionStatus(ctx, userId);
}

/** Abandons the deletion — not once purged: a tombstone stays a tombstone. */
export async function cancelDeletion(ctx: Ctx, userId: number): Promise<DeleteAccountStatus> {
  await ctx.db.user.updateMany({ where: { id: userId, deletedAt: null }, data: { deleteRequestedAt: null } });
  await userChanged(ctx, userId);
  return deletionStatus(ctx, userId);
}
