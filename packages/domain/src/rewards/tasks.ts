import { type Lang, ProgressStatus, type Reward, RewardType, type Task, type TaskList } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendUserMessage } from "../messages/send.ts";
import { businessDay } from "../time.ts";
import { transact } from "../transaction.ts";
import { grantBeans } from "../wallet/ledger.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";

/**
 * Reward tasks (spec §3 Task, §4 Tasks, §9): daily tasks (challengeType 0) count per business day
 * and start again at 00:00 in BUSINESS_TZ; challenges (1) count once ever. Progress comes only from
 * real events (task-progress.ts: check-in, upload, transcription, export, TTS, gift code, purchase,
 * survey), never from the client.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

export const TASK_LEDGER_REASON = "task";

/** The progress period of a task now: today's business day for daily tasks, 'once' for challenges. */
export function periodOf(challengeType: number, today: string): string {
  return challengeType === 0 ? today : "once";
}

function statusOf(amount: number, finish: number, claimed: boolean): number {
  if (claimed) return ProgressStatus.Claimed;
  return amount >= finish ? ProgressStatus.Claimable : ProgressStatus.Unfinished;
}

/** task_list: [daily tasks, challenges], each with the user's progress in its current period. */
export async function taskList(ctx: Ctx, userId: number, lang: Lang): Promise<TaskList> {
  const today = businessDay(ctx.clock.now(), ctx.config.BUSINESS_TZ);
  const [tasks, progress] = await Promise.all([
    ctx.db.challengeTask.findMany({ where: { enabled: true }, orderBy: [{ sort: "asc" }, { challengeId: "asc" }] }),
    ctx.db.taskProgress.findMany({ where: { userId, period: { in: [today, "once"] } } }),
  ]);
  const views = tasks.map((t): Task => {
    const p = progress.find((r) => r.challengeId === t.challengeId && r.period === periodOf(t.challengeType, today));
    const amount = Math.min(p?.progressAmount ?? 0, t.progressFinish);
    return {
      challengeId: t.challengeId,
      challengeName: lang === "en" ? t.challengeNameEn : t.challengeName,
      challengeDesc: lang === "en" ? t.challengeDescEn : t.challengeDesc,
      challengeType: t.challengeType,
      progressAmount: amount,
      progressFinish: t.progressFinish,
      progressStatus: statusOf(amount, t.progressFinish, Boolean(p?.claimedAt)),
      rewardType: t.rewardType,
      rewardNumber: t.rewardNumber,
    };
  });
  return [views.filter((t) => t.challengeType === 0), views.filter((t) => t.challengeType !== 0)];
}

/**
 * receive_reward: claims a finished task's reward, exactly once — the claim is a conditional update
 * of the progress row (claimedAt still null, the goal reached) in the transaction that grants the
 * reward (beans under the ledger key ('task', '<challengeId>:<period>'), or a time card valid 90
 * days). Nothing to claim (unfinished, claimed already, or claimed by a parallel call) answers an
 * empty list (spec §4: 'no reward to claim'). An unknown task is 10002.
 */
export async function receiveReward(ctx: Ctx, userId: number, challengeId: number): Promise<Reward[]> {
  const task = await ctx.db.challengeTask.findUnique({ where: { challengeId } });
  if (!task?.enabled) throw AppError.invalid("challengeId", "not one of the tasks");
  const now = ctx.clock.now();
  const period = periodOf(task.challengeType, businessDay(now, ctx.config.BUSINESS_TZ));
  return transact(ctx, async (tx, after) => {
    const claimed = await tx.taskProgress.updateMany({
      where: { userId, challengeId, period, claimedAt: null, progressAmount: { gte: task.progressFinish } },
      data: { claimedAt: now },
    });
    if (claimed.count === 0) return [];
    const refId = `${challengeId}:${period}`;
    if (task.rewardType === RewardType.Beans) {
      await grantBeans(tx, userId, task.rewardNumber, TASK_LEDGER_REASON, refId);
    } else {
      await grantTimeCard(tx, {
        userId,
        seconds: task.rewardNumber,
        validSeconds: CARD_VALIDITY.task,
        source: "task",
        refId,
        now,
      });
    }
    await sendUserMessage(tx, userId, {
      title: "任务奖励已到账",
      text: `完成「${task.challengeName}」，${rewardText(task.rewardType, task.rewardNumber, "zh")}已到账。`,
      titleEn: "Task reward received",
      textEn: `You completed “${task.challengeNameEn}”: ${rewardText(task.rewardType, task.rewardNumber, "en")} added.`,
      sourceRef: `task:${refId}`,
    });
    after.publish({ type: "user.changed", userId });
    return [{ type: task.rewardType, num: task.rewardNumber, amount: 1 }];
  });
}

/** "20 悦豆" / "30 分钟时长" / "20 beans" / "30 min of transcription time". */
export function rewardText(type: number, num: number, lang: Lang): string {
  if (type === RewardType.Beans) return lang === "zh" ? `${num} 悦豆` : `${num} beans`;
  const minutes = Math.round(num / 60);
  const hours = num / 3600;
  if (lang === "zh") return hours >= 1 && Number.isInteger(hours) ? `${hours} 小时时长` : `${minutes} 分钟时长`;
  if (hours >= 1 && Number.isInteger(hours)) return `${hours} ${hours === 1 ? "hour" : "hours"} of transcription time`;
  return `${minutes} min of transcription time`;
}
