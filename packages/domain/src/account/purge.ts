import type { DomainContext } from "../context.ts";
import { transact } from "../transaction.ts";
import { uploadedAvatarKey } from "./avatar.ts";

/**
 * Ends an account whose deletion grace period is over: its sessions and personal data go (records
 * with their transcripts and tasks, folders, hot words, voices with their samples and previews,
 * sung and converted songs, speech tasks), and the row stays
 * only as an anonymous tombstone (so ledgers and orders keep their references). The phone number is
 * freed: signing in with it again creates a new account. The stored files go after the commit, so a
 * failed transaction never loses a file it still references; "user.changed" tells every process's
 * caches (the purge may run in a worker).
 */
export async function purgeAccount(ctx: DomainContext, userId: number): Promise<void> {
  const keys = await transact(ctx, async (tx, after) => {
    const records = await tx.audioRecord.findMany({ where: { userId }, select: { storageKey: true } });
    const clips = await tx.clip.findMany({ where: { userId }, select: { storageKey: true, audioKey: true } });
    const voices = await tx.userVoice.findMany({ where: { userId }, select: { sourceKey: true, previewKey: true } });
    const works = await tx.voiceWork.findMany({
      where: { userId },
      select: { inputKey: true, outputKey: true, vocalsKey: true },
    });
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { userPhoto: true } });
    // an avatar another profile still shows (set before photos were checked) keeps its file
    const shared = await tx.user.count({ where: { userPhoto: user.userPhoto, id: { not: userId } } });
    const avatar = shared ? undefined : uploadedAvatarKey(user.userPhoto);
    const speech = await tx.ttsTask.findMany({
      where: { userId, outputKey: { not: null } },
      select: { outputKey: true },
    });
    await tx.session.deleteMany({ where: { userId } });
    await tx.apiKey.deleteMany({ where: { userId } });
    await tx.audioRecord.deleteMany({ where: { userId } });
    await tx.folder.deleteMany({ where: { userId } });
    await tx.hotWord.deleteMany({ where: { userId } });
    // voiceprints (docs/people.md): the people named; the speakers' prints went with the records
    await tx.person.deleteMany({ where: { userId } });
    await tx.voiceWork.deleteMany({ where: { userId } });
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
        deletedAt: ctx.clock.now(),
      },
    });
    after.publish({ type: "user.changed", userId });
    return [
      ...records.map((r) => r.storageKey),
      ...clips.flatMap((c) => [c.storageKey, c.audioKey]),
      ...voices.flatMap((v) => [v.sourceKey, v.previewKey]),
      ...works.flatMap((w) => [w.inputKey, w.outputKey, w.vocalsKey]),
      ...speech.flatMap((s) => (s.outputKey ? [s.outputKey] : [])),
      ...(avatar ? [avatar] : []),
    ].filter((key): key is string => !!key);
  });
  await Promise.all(keys.map((key) => ctx.files.delete(key)));
}

/** Accounts whose deletion grace period is over and that are not purged yet. */
export async function accountsDueForPurge(ctx: Pick<DomainContext, "db" | "clock" | "config">): Promise<number[]> {
  const graceMs = ctx.config.ACCOUNT_DELETION_GRACE_DAYS * 86_400_000;
  const due = await ctx.db.user.findMany({
    where: { deletedAt: null, deleteRequestedAt: { lte: new Date(ctx.clock.now().getTime() - graceMs) } },
    select: { id: true },
  });
  return due.map((u) => u.id);
}
