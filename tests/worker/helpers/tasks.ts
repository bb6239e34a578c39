import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { FileStatus } from "@yuelu/contracts";
import { chargeTranscription, type Db } from "@yuelu/db";
import type { FileStore } from "@yuelu/runtime";

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
  const tag = randomBytes(4).toString("hex");
  const user = await db.user.create({
    data: { phone: `137${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`, nickName: `asr-${tag}` },
  });
  const cardSeconds = 3600;
  const card = await db.timeCard.create({
    data: {
      userId: user.id,
      seconds: cardSeconds,
      remaining: cardSeconds,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      source: "gift",
      refId: `asr-test-${tag}`,
    },
  });
  for (const word of options.hotWords ?? []) await db.hotWord.create({ data: { userId: user.id, word } });
  const key = `audio/${user.id}/${tag}${path.extname(options.audioFile)}`;
  await files.put(key, createReadStream(options.audioFile));
  const seconds = Math.ceil((await stat(options.audioFile)).size / 32_000);
  const record = await db.audioRecord.create({
    data: {
      userId: user.id,
      fileName: path.basename(options.audioFile),
      format: path.extname(options.audioFile).slice(1),
      fileSize: BigInt((await stat(options.audioFile)).size),
      timeLen: seconds,
      sampleRate: 16_000,
      channels: 1,
      storageKey: key,
      fileStatus: FileStatus.InQueue,
    },
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
    await chargeTranscription(tx, { userId: user.id, taskId: created.id, seconds, day: TEST_DAY, dailyLimit: 36_000 });
    return created;
  });
  return {
    userId: user.id,
    fileId: record.fileId,
    taskId: task.id,
    cardId: card.id,
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
