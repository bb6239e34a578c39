import { useQuery } from "@tanstack/react-query";
import { clsx } from "clsx";
import type { TFunction } from "i18next";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "../../components/ui/button.tsx";
import { ErrorState, Spinner } from "../../components/ui/states.tsx";
import { CHECKIN_THROTTLE_MS } from "../../config/env.ts";
import { hours } from "../../lib/format.ts";
import { useUserInfo } from "../account/api.ts";
import { checkinQuery, dayStatus, type SignResult, type SignRewardDay, signButtonKey, useSign } from "./api.ts";
import { RewardPopup } from "./reward-popup.tsx";

export function rewardLabel(t: TFunction, type: number, amount: number): string {
  return type === 0 ? t("checkin.beansN", { value: amount }) : t("common.hoursUnit", { value: hours(amount) });
}

/** Spec §4 check-in: a month grid, 7 a row; only the day after allSignDay can be signed, once a day. */
export function CheckinPanel() {
  const { t } = useTranslation();
  const checkin = useQuery(checkinQuery);
  const info = useUserInfo();
  const sign = useSign();
  const lastClick = useRef(0);
  const [reward, setReward] = useState<SignResult | null>(null);

  if (checkin.isPending) return <Spinner />;
  if (checkin.isError) return <ErrorState onRetry={() => void checkin.refetch()} />;
  const data = checkin.data;
  const isMember = info.data?.isMember ?? false;

  const onSign = () => {
    // Spec §5: at most one check-in every 2 seconds, ignored while one is in progress.
    const now = Date.now();
    if (sign.isPending || now - lastClick.current < CHECKIN_THROTTLE_MS) return;
    lastClick.current = now;
    sign.mutate(undefined, {
      onSuccess: (result) => {
        if (result.signCheck === 1) setReward(result);
        else if (result.signCheck === 2) toast.info(t("checkin.alreadySigned"));
        else toast.error(t("checkin.failed"));
      },
      onError: () => toast.error(t("checkin.failed")),
    });
  };

  return (
    <div className="checkin">
      <p className="muted">{t("checkin.monthProgress", { days: data.allSignDay })}</p>
      <ol className="checkin-grid">
        {data.rewardContentList.map((day: SignRewardDay, index: number) => {
          const status = dayStatus(index, data);
          return (
            <li
              key={day.day}
              className={clsx("checkin-day", `status-${status}`)}
              data-status={status}
              aria-current={status === 1 ? "date" : undefined}
            >
              <span className="checkin-day-n">{t("checkin.dayN", { day: day.day })}</span>
              <span className="checkin-reward">{rewardLabel(t, day.signRewardType, day.signRewardNumber)}</span>
              {status === 0 && <span className="checkin-tick">✓</span>}
            </li>
          );
        })}
      </ol>
      <Button
        block
        size="lg"
        disabled={data.todaySign || sign.isPending}
        onClick={onSign}
        variant={isMember ? "gold" : "primary"}
      >
        {t(signButtonKey(data.todaySign, isMember))}
      </Button>
      {reward && <RewardPopup result={reward} onClose={() => setReward(null)} />}
    </div>
  );
}
