import { GIFT_MEMBERSHIP_TYPES } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { RewardImage } from "@/components/ui/reward-image.tsx";
import "./membership-popup.css";

/** Spec §2 membership-claimed popup: a gift code of types 101–199 granted `days` of membership. */
export function MembershipPopup({ days, onClose }: { days: number; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={t("rewards.memberTitle")}
      description={t("rewards.memberText", { days })}
    >
      <div className="member-popup" data-testid="member-popup">
        <RewardImage type={GIFT_MEMBERSHIP_TYPES.min} amount={days} size="lg" />
        <p className="member-popup-text">{t("rewards.memberText", { days })}</p>
      </div>
      <div className="dialog-actions">
        <Button variant="gold" block onClick={onClose} data-testid="reward-accept">
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
