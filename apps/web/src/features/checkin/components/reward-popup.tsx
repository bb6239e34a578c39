import type { SignResult } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { GiftCard } from "@/components/ui/gift-card.tsx";
import { rewardLabel } from "../lib/reward-text.ts";

/** The 'happy to accept' popup after a reward. */
export function RewardPopup({ result, onClose }: { result: SignResult; onClose: () => void }) {
  const { t } = useTranslation();
  const amount = result.signRewardNumber * Math.max(1, result.memberTimes);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t("checkin.rewardTitle")}>
      <GiftCard
        tone="blue"
        testId="reward-popup"
        amount={rewardLabel(t, result.signRewardType, amount)}
        text={result.memberTimes > 1 ? t("checkin.memberDouble") : undefined}
      />
      <div className="dialog-actions">
        <Button block onClick={onClose}>
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
