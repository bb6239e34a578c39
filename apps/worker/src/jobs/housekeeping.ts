import { type Db, purgeAccount } from "@yuelu/db";
import { failStuckTranscriptions, type JobLookup } from "./stuck-transcriptions.ts";

export interface HousekeepingResult {
  expiredSessions: number;
  oldSmsCodes: number;
  purgedAccounts: number;
  /** transcription tasks stuck in queue/transcribing that were failed and refunded */
  failedStuckTasks: number;
  repairedRefunds: number;
}

const DAY_MS = 86_400_000;

/**
 * Periodic clean-up: expired sessions, SMS codes older than a day, accounts whose deletion grace
 * period is over, and transcription tasks stuck far longer than possible (failed and refunded; with
 * `transcriptionQueue`, also those whose job is gone). Plain function so tests can run it directly.
 */
export async function runHousekeeping(
  db: Db,
  options: {
    graceDays: number;
    now?: Date;
    transcriptionQueue?: JobLookup;
    /** deletes a purged account's stored files */
    deleteFiles?: (keys: string[]) => Promise<void>;
  },
): Promise<HousekeepingResult> {
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
  for (const user of due) await purgeAccount(db, user.id, options.deleteFiles);
  const stuck = await failStuckTranscriptions(db, { queue: options.transcriptionQueue, now });
  return { expiredSessions: sessions.count, oldSmsCodes: codes.count, purgedAccounts: due.length, ...stuck };
}
