import { useQuery } from "@tanstack/react-query";
import type { SignResult } from "@yuelu/contracts";
import { SignCheck } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { CHECKIN_THROTTLE_MS } from "@/config/env.ts";
import { useUserInfo } from "@/lib/account.ts";
import { checkinQuery } from "../api/get-checkin.ts";
import { useSign } from "../api/sign.ts";
import { dayStatus, signButtonKey } from "../lib/checkin-rules.ts";
import { rewardLabel, rewardParts } from "../lib/reward-text.ts";
import { RewardPopup } from "./reward-popup.tsx";
import "./checkin-panel.css";

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
        if (result.signCheck === SignCheck.Success) setReward(result);
        else if (result.signCheck === SignCheck.AlreadySigned) toast.info(t("checkin.alreadySigned"));
        else toast.error(t("checkin.failed"));
      },
      onError: () => toast.error(t("checkin.failed")),
    });
  };

  return (
    <div className="checkin">
      <p className="muted">{t("checkin.monthProgress", { count: data.allSignDay })}</p>
      <ol className="checkin-grid">
        {data.rewardContentList.map((day, index) => {
          const status = dayStatus(index, data);
          const parts = rewardParts(t, day.signRewardType, day.signRewardNumber);
          return (
            <li
              key={day.day}
              className={clsx("checkin-day", `status-${status}`)}
              data-status={status}
              data-testid="checkin-day"
              aria-current={status === 1 ? "date" : undefined}
              aria-label={`${t("checkin.dayN", { day: day.day })} ${rewardLabel(t, day.signRewardType, day.signRewardNumber)}`}
            >
              <span className="checkin-day-n" aria-hidden>
                {t("checkin.dayN", { day: day.day })}
              </span>
              <span className="checkin-amount" aria-hidden>
                {parts.value}
              </span>
              <span className="checkin-unit" aria-hidden>
                {parts.unit}
              </span>
              {status === 0 && (
                <span className="checkin-tick" aria-hidden>
                  ✓
                </span>
              )}
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
