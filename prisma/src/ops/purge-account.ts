import type { Db } from "../client.ts";

/**
 * Ends an account whose deletion grace period is over: its sessions and personal data go (records
 * with their transcripts, folders, hot words, voices, speech tasks), and the row stays only as an
 * anonymous tombstone (so ledgers and orders keep their references). The phone number is freed:
 * signing in with it again creates a new account. The stored files go after the commit, through
 * `deleteFiles` (the FileStore), so a failed transaction never loses a file it still references.
 */
export async function purgeAccount(
  db: Db,
  userId: number,
  deleteFiles: (keys: string[]) => Promise<void> = async () => {},
): Promise<void> {
  const keys = await db.$transaction(async (tx) => {
    const records = await tx.audioRecord.findMany({ where: { userId }, select: { storageKey: true } });
    const voices = await tx.userVoice.findMany({ where: { userId }, select: { sourceKey: true } });
    const speech = await tx.ttsTask.findMany({
      where: { userId, outputKey: { not: null } },
      select: { outputKey: true },
    });
    await tx.session.deleteMany({ where: { userId } });
    await tx.audioRecord.deleteMany({ where: { userId } });
    await tx.folder.deleteMany({ where: { userId } });
    await tx.hotWord.deleteMany({ where: { userId } });
    await tx.userVoice.deleteMany({ where: { userId } });
    await tx.ttsTask.deleteMany({ where: { userId } });
    await tx.user.update({
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
    });
    return [
      ...records.map((r) => r.storageKey),
      ...voices.map((v) => v.sourceKey),
      ...speech.flatMap((s) => (s.outputKey ? [s.outputKey] : [])),
    ];
  });
  await deleteFiles(keys);
}
