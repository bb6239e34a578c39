import type { WelcomeGiftKind } from "@yuelu/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { GiftCard } from "@/components/ui/gift-card.tsx";
import "./gift-dialog.css";

const GIFTS: Record<
  WelcomeGiftKind,
  { title: string; text: string; amount: string; count: number; tone: "blue" | "orange" | "black" }
> = {
  new_user: { title: "gifts.newUserTitle", text: "gifts.newUserText", amount: "units.hours", count: 3, tone: "blue" },
  invite: { title: "gifts.inviteTitle", text: "gifts.inviteText", amount: "units.hours", count: 5, tone: "orange" },
  black_card: {
    title: "gifts.blackCardTitle",
    text: "gifts.blackCardText",
    amount: "units.days",
    count: 30,
    tone: "black",
  },
};

/**
 * The welcome gifts granted (3-hour card, 5-hour invitation card, 30-day membership), announced
 * together in one card, once — spec §4's chain of gift dialogs made one (issue 43). `extra` is what
 * the app adds under them: the check-in offer.
 */
export function WelcomeGiftsDialog({
  kinds,
  extra,
  onClose,
}: {
  kinds: readonly WelcomeGiftKind[];
  extra?: ReactNode;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("gifts.title")}
      description={kinds.map((kind) => t(GIFTS[kind].text)).join(" ")}
    >
      <ul className="welcome-gifts" data-testid="welcome-gifts">
        {kinds.map((kind) => {
          const gift = GIFTS[kind];
          return (
            <li key={kind}>
              <GiftCard
                tone={gift.tone}
                testId={`gift-${kind}`}
                amount={t(gift.amount, { count: gift.count })}
                text={
                  <>
                    <strong>{t(gift.title)}</strong>
                    <span>{t(gift.text)}</span>
                  </>
                }
              />
            </li>
          );
        })}
      </ul>
      {extra}
      <div className="dialog-actions">
        <Button block onClick={onClose} data-testid="gifts-accept">
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
