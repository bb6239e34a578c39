import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { checkinQuery } from "../api/get-checkin.ts";
import { markInvitedToday } from "./sign-in-auto-open.tsx";
import "./checkin-offer.css";

/**
 * The check-in invitation as a line of the welcome card (issue 43): on a first sign-in the check-in
 * is offered there, not in a dialog of its own. Shown only while today is not signed; being shown
 * counts as today's invitation, so the reward dialog does not open by itself as well. `onGo` closes
 * the card and opens the reward dialog (the app composes both).
 */
export function CheckinOffer({ onGo }: { onGo: () => void }) {
  const { t } = useTranslation();
  const checkin = useQuery(checkinQuery);
  const show = checkin.data !== undefined && !checkin.data.todaySign;
  useEffect(() => {
    if (show) markInvitedToday();
  }, [show]);
  if (!show) return null;
  return (
    <div className="checkin-offer" data-testid="checkin-offer">
      <span>{t("checkin.offerText")}</span>
      <Button size="sm" variant="secondary" onClick={onGo} data-testid="checkin-offer-go">
        {t("checkin.offerGo")}
      </Button>
    </div>
  );
}
