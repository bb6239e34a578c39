import type { Db } from "../client.ts";

/**
 * Ends an account whose deletion grace period is over: its sessions and personal data go, and
 * the row stays only as an anonymous tombstone (so ledgers and orders keep their references).
 * The phone number is freed: signing in with it again creates a new account.
 */
export async function purgeAccount(db: Db, userId: number): Promise<void> {
  await db.$transaction([
    db.session.deleteMany({ where: { userId } }),
    db.user.update({
      where: { id: userId },
      data: {
        phone: null,
        passwordHash: null,
        nickName: "已注销用户",
        userPhoto: "",
        infoCollectIdentity: null,
        infoCollectChannel: null,
        deletedAt: new Date(),
      },
    }),
  ]);
}
