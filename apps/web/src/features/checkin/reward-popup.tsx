import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import type { SignResult } from "./api.ts";
import { rewardLabel } from "./checkin-panel.tsx";

/** The 'happy to accept' popup after a reward. */
export function RewardPopup({ result, onClose }: { result: SignResult; onClose: () => void }) {
  const { t } = useTranslation();
  const amount = result.signRewardNumber * Math.max(1, result.memberTimes);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t("checkin.rewardTitle")}>
      <div className="gift-card gift-blue" data-testid="reward-popup">
        <div className="gift-amount">{rewardLabel(t, result.signRewardType, amount)}</div>
        {result.memberTimes > 1 && <div className="gift-text">{t("checkin.memberDouble")}</div>}
      </div>
      <div className="dialog-actions">
        <Button block onClick={onClose}>
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
