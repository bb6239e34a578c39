import type { SignResult } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { RewardPopup as Popup } from "@/components/ui/reward-popup.tsx";

/** The 'happy to accept' popup after a check-in: the day's reward (doubled for members). */
export function RewardPopup({ result, onClose }: { result: SignResult; onClose: () => void }) {
  const { t } = useTranslation();
  const amount = result.signRewardNumber * Math.max(1, result.memberTimes);
  return (
    <Popup
      title={t("checkin.rewardTitle")}
      rewards={[{ type: result.signRewardType, amount }]}
      text={result.memberTimes > 1 ? t("checkin.memberDouble") : undefined}
      onClose={onClose}
    />
  );
}
