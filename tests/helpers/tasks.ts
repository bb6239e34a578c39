import { FileStatus } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { chargeTranscription } from "@yuelu/domain";
import { decodedSeconds, type FileStore } from "@yuelu/runtime";
import { seedCards, seedRecord, seedUser } from "./factories.ts";

export interface ChargedTask {
  userId: number;
  fileId: number;
  taskId: number;
  cardId: number;
  day: string;
  seconds: number;
  cardSeconds: number;
}

export const TEST_DAY = "2030-01-01";

/**
 * Rows as the dictation API leaves them: a user with a time card, an audio record whose file is in
 * the FileStore (status 3), and a task in queue charged against the card and the day's quota.
 */
export async function createChargedTask(
  db: Db,
  files: FileStore,
  options: { audioFile: string; language: "zh" | "en" | "auto"; speakerCount?: number; hotWords?: string[] },
): Promise<ChargedTask> {
  const user = await seedUser(db);
  const cardSeconds = 3600;
  const [card] = await seedCards(db, user.id, [{ seconds: cardSeconds }]);
  for (const word of options.hotWords ?? []) await db.hotWord.create({ data: { userId: user.id, word } });
  // measured as an upload is (records/probe.ts): the worker decodes no more than this
  const seconds = Math.max(1, Math.round((await decodedSeconds(options.audioFile, { maxSeconds: 5 * 3600 })).seconds));
  const record = await seedRecord(db, {
    userId: user.id,
    audioFile: options.audioFile,
    files,
    timeLen: seconds,
    fileStatus: FileStatus.InQueue,
  });
  const task = await db.$transaction(async (tx) => {
    const created = await tx.transcriptionTask.create({
      data: {
        fileId: record.fileId,
        userId: user.id,
        status: FileStatus.InQueue,
        language: options.language,
        speakerCount: options.speakerCount ?? 0,
      },
    });
    await chargeTranscription(tx, {
      userId: user.id,
      taskId: created.id,
      seconds,
      day: TEST_DAY,
      dailyLimit: 36_000,
      now: new Date(),
    });
    return created;
  });
  return {
    userId: user.id,
    fileId: record.fileId,
    taskId: task.id,
    cardId: card!.id,
    day: TEST_DAY,
    seconds,
    cardSeconds,
  };
}

/** What the charge left: the card's remaining seconds and the day's used seconds. */
export async function balances(db: Db, t: ChargedTask) {
  const card = await db.timeCard.findUniqueOrThrow({ where: { id: t.cardId } });
  const day = await db.quotaDay.findUnique({ where: { userId_day: { userId: t.userId, day: t.day } } });
  return { cardRemaining: card.remaining, daySeconds: day?.secondsUsed ?? 0 };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000) {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
