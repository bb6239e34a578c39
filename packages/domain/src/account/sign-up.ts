import { Prisma, type UserModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { grantWelcomeGifts } from "../rewards/welcome-gifts.ts";
import { transact } from "../transaction.ts";
import { deletionDue } from "./deletion.ts";
import { purgeAccount } from "./purge.ts";

/** A new account's nickname until the user sets one ('用户1234'; the web shows 'User 1234' in English). */
export function defaultNickName(phone: string): string {
  return `用户${phone.slice(-4)}`;
}

/** Attempts at creating an account when the database's invite code draw collides (one draw in ~10^6 at a million users). */
const CREATE_ATTEMPTS = 5;

/**
 * The phone's account; a fresh one on first sign-in, or when the old one's deletion has come due
 * (the old one is purged first). A fresh account gets its welcome gifts in the transaction that
 * creates it (welcome-gifts.ts), and the invitation gift when `inviteCode` is another existing
 * user's code. Two first sign-ins at once create one account: the loser's insert hits the unique
 * phone, its transaction (gifts included) rolls back, and it answers the winner's account.
 */
export async function findOrCreateAccount(
  ctx: DomainContext,
  phone: string,
  options: { inviteCode?: string } = {},
): Promise<{ user: UserModel; created: boolean }> {
  const existing = await ctx.db.user.findUnique({ where: { phone } });
  if (existing && !deletionDue(existing.deleteRequestedAt, ctx.config.ACCOUNT_DELETION_GRACE_DAYS, ctx.clock.now())) {
    return { user: existing, created: false };
  }
  if (existing) await purgeAccount(ctx, existing.id);
  const now = ctx.clock.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const user = await transact(ctx, async (tx, after) => {
        const inviter = options.inviteCode
          ? await tx.user.findFirst({
              where: { inviteCode: options.inviteCode, deletedAt: null },
              select: { id: true },
            })
          : null;
        const created = await tx.user.create({
          data: { phone, nickName: defaultNickName(phone), invitedById: inviter?.id ?? null },
        });
        await grantWelcomeGifts(tx, created.id, { invitedBy: inviter?.id ?? null, now });
        after.publish({ type: "user.changed", userId: created.id });
        return tx.user.findUniqueOrThrow({ where: { id: created.id } });
      });
      return { user, created: true };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
      // Two first sign-ins at once: the other one created it.
      const winner = await ctx.db.user.findUnique({ where: { phone } });
      if (winner) return { user: winner, created: false };
      // Otherwise the invite code the database drew was taken: draw again.
      if (attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/**
 * The phone's account for a password sign-in, or null when there is none. An account whose
 * deletion has come due is purged first (so it is none).
 */
export async function accountForPasswordSignIn(ctx: DomainContext, phone: string): Promise<UserModel | null> {
  const user = await ctx.db.user.findUnique({ where: { phone } });
  if (user && deletionDue(user.deleteRequestedAt, ctx.config.ACCOUNT_DELETION_GRACE_DAYS, ctx.clock.now())) {
    await purgeAccount(ctx, user.id);
    return null;
  }
  return user;
}
