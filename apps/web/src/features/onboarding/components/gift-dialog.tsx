import type { WelcomeGiftKind } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { GiftCard } from "@/components/ui/gift-card.tsx";

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

/** One welcome gift (3-hour card, 5-hour card, 30-day membership), announced once. */
export function GiftDialog({ kind, onClose }: { kind: WelcomeGiftKind; onClose: () => void }) {
  const { t } = useTranslation();
  const gift = GIFTS[kind];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t(gift.title)} description={t(gift.text)}>
      <GiftCard
        tone={gift.tone}
        testId={`gift-${kind}`}
        amount={t(gift.amount, { count: gift.count })}
        text={t(gift.text)}
      />
      <div className="dialog-actions">
        <Button variant={kind === "black_card" ? "gold" : "primary"} block onClick={onClose}>
          {t("gifts.happyToAccept")}
        </Button>
      </div>
    </Dialog>
  );
}
