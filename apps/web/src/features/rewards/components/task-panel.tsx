import type { Task } from "@yuelu/contracts";
import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { RewardImage } from "@/components/ui/reward-image.tsx";
import { type RewardItem, RewardPopup } from "@/components/ui/reward-popup.tsx";
import { EmptyState, ErrorState, ProgressBar, Spinner } from "@/components/ui/states.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { rewardLabel } from "@/lib/reward-text.ts";
import { useTasks } from "../api/get-tasks.ts";
import { useReceiveReward } from "../api/receive-reward.ts";
import { canClaim, taskProgress, taskState } from "../lib/tasks.ts";
import "./task-panel.css";

/**
 * Spec §4 Tasks: the daily tasks first, the challenges second, each with its progress and reward.
 * Only a task at progressStatus 1 can be claimed; an empty answer says 'no reward to claim'.
 */
export function TaskPanel() {
  const { t } = useTranslation();
  const tasks = useTasks();
  const claim = useReceiveReward();
  const [claiming, setClaiming] = useState<number | null>(null);
  const [granted, setGranted] = useState<RewardItem[] | null>(null);

  if (tasks.isPending) return <Spinner />;
  if (tasks.isError) return <ErrorState onRetry={() => void tasks.refetch()} />;
  const [daily = [], challenges = []] = tasks.data;
  if (daily.length + challenges.length === 0) return <EmptyState icon="★" text={t("rewards.noTasks")} />;

  const onClaim = (task: Task) => {
    if (!canClaim(task) || claim.isPending) return;
    setClaiming(task.challengeId);
    claim.mutate(task.challengeId, {
      onSuccess: (rewards) => {
        if (rewards.length === 0) toast.info(t("rewards.noRewardToClaim"));
        else setGranted(rewards.map((r) => ({ type: r.type, amount: r.num * Math.max(1, r.amount) })));
      },
      onError: (error) => toast.error(error instanceof ApiError ? error.message : t("rewards.claimFailed")),
      onSettled: () => setClaiming(null),
    });
  };

  return (
    <div className="task-panel" data-testid="task-panel">
      {[
        { id: "daily", title: t("rewards.daily"), hint: t("rewards.dailyHint"), list: daily },
        { id: "challenge", title: t("rewards.challenge"), hint: t("rewards.challengeHint"), list: challenges },
      ].map((group) =>
        group.list.length === 0 ? null : (
          <section key={group.id} className="task-group" data-testid={`task-group-${group.id}`}>
            <header className="task-group-head">
              <h3>{group.title}</h3>
              <span className="muted">{group.hint}</span>
            </header>
            <ul className="task-list">
              {group.list.map((task) => (
                <TaskRow
                  key={task.challengeId}
                  task={task}
                  claiming={claiming === task.challengeId}
                  onClaim={() => onClaim(task)}
                />
              ))}
            </ul>
          </section>
        ),
      )}
      {granted && <RewardPopup rewards={granted} onClose={() => setGranted(null)} />}
    </div>
  );
}

function TaskRow({ task, claiming, onClaim }: { task: Task; claiming: boolean; onClaim: () => void }) {
  const { t } = useTranslation();
  const state = taskState(task);
  const progress = taskProgress(task);
  const progressText = progress.asPercent
    ? t("rewards.progressPercent", { percent: progress.percent })
    : t("rewards.progress", { done: progress.done, total: progress.total });
  return (
    <li className={clsx("task", `task-${state}`)} data-testid={`task-${task.challengeId}`} data-state={state}>
      <RewardImage type={task.rewardType} amount={task.rewardNumber} size="sm" className="task-image" />
      <div className="task-body">
        <div className="task-name">{task.challengeName}</div>
        <div className="task-desc muted">{task.challengeDesc}</div>
        <div className="task-progress">
          <ProgressBar value={progress.percent} label={progressText} />
          <span className="task-progress-text">{progressText}</span>
        </div>
        <div className="task-reward">
          {t("rewards.reward", { reward: rewardLabel(t, task.rewardType, task.rewardNumber) })}
        </div>
      </div>
      <Button
        size="sm"
        className="task-action"
        variant={state === "claimable" ? "primary" : "secondary"}
        disabled={state !== "claimable" || claiming}
        onClick={onClaim}
        data-testid="task-claim"
      >
        {state === "claimable"
          ? claiming
            ? t("rewards.claiming")
            : t("rewards.claim")
          : state === "claimed"
            ? t("rewards.claimed")
            : t("rewards.unfinished")}
      </Button>
    </li>
  );
}
