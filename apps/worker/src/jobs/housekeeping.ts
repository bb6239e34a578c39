import { type Db, purgeAccount } from "@yuelu/db";

export interface HousekeepingResult {
  expiredSessions: number;
  oldSmsCodes: number;
  purgedAccounts: number;
}

const DAY_MS = 86_400_000;

/**
 * Periodic clean-up: expired sessions, SMS codes older than a day, and accounts whose deletion
 * grace period is over. Plain function over the database so tests can run it directly.
 */
export async function runHousekeeping(db: Db, options: { graceDays: number; now?: Date }): Promise<HousekeepingResult> {
  const now = options.now ?? new Date();
  const sessions = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  const codes = await db.smsCode.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - DAY_MS) } } });
  const due = await db.user.findMany({
    where: {
      deletedAt: null,
      deleteRequestedAt: { lte: new Date(now.getTime() - options.graceDays * DAY_MS) },
    },
    select: { id: true },
  });
  for (const user of due) await purgeAccount(db, user.id);
  return { expiredSessions: sessions.count, oldSmsCodes: codes.count, purgedAccounts: due.length };
}
