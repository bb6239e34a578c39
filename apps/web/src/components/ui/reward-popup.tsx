import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { rewardLabel } from "@/lib/reward-text.ts";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";
import { RewardImage } from "./reward-image.tsx";
import "./reward-popup.css";

export interface RewardItem {
  /** 0 beans, 101–199 membership days, else a time card */
  type: number;
  /** beans, days or seconds */
  amount: number;
}

/**
 * Spec §2 reward popup ('happy to accept'): what was granted, each with its image and in words,
 * and one button. Tasks, gift codes, the shop and the check-in show it.
 */
export function RewardPopup({
  rewards,
  title,
  text,
  onClose,
  testId = "reward-popup",
}: {
  rewards: RewardItem[];
  title?: ReactNode;
  text?: ReactNode;
  onClose: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const words = rewards.map((r) => rewardLabel(t, r.type, r.amount)).join(t("common.listSeparator"));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title ?? t("rewards.popupTitle")} description={words}>
      <div className="reward-popup" data-testid={testId}>
        <div className="reward-popup-images">
          {rewards.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list shown once
            <RewardImage key={i} type={r.type} amount={r.amount} size="lg" />
          ))}
        </div>
        <p className="reward-popup-amount" data-testid="reward-amount">
          {words}
        </p>
        <p className="muted reward-popup-text">{text ?? t("rewards.popupText")}</p>
      </div>
      <div className="dialog-actions">
        <Button block onClick={onClose} data-testid="reward-accept">
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
