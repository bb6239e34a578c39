import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import type { GiftKind } from "../account/api.ts";

const GIFTS: Record<GiftKind, { title: string; text: string; amount: string; value: number; tone: string }> = {
  new_user: { title: "gifts.newUserTitle", text: "gifts.newUserText", amount: "gifts.hours", value: 3, tone: "blue" },
  invite: { title: "gifts.inviteTitle", text: "gifts.inviteText", amount: "gifts.hours", value: 5, tone: "orange" },
  black_card: {
    title: "gifts.blackCardTitle",
    text: "gifts.blackCardText",
    amount: "gifts.days",
    value: 30,
    tone: "black",
  },
};

/** One welcome gift (3-hour card, 5-hour card, 30-day membership), announced once. */
export function GiftDialog({ kind, onClose }: { kind: GiftKind; onClose: () => void }) {
  const { t } = useTranslation();
  const gift = GIFTS[kind];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t(gift.title)} description={t(gift.text)}>
      <div className={`gift-card gift-${gift.tone}`} data-testid={`gift-${kind}`}>
        <div className="gift-amount">{t(gift.amount, { value: gift.value })}</div>
        <div className="gift-text">{t(gift.text)}</div>
      </div>
      <div className="dialog-actions">
        <Button variant={kind === "black_card" ? "gold" : "primary"} block onClick={onClose}>
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
