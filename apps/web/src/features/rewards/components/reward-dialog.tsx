import * as Tabs from "@radix-ui/react-tabs";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { GiftPanel } from "./gift-panel.tsx";
import { TaskPanel } from "./task-panel.tsx";
import "./reward-dialog.css";

/**
 * Spec §2 reward dialog: daily check-in (the check-in feature's panel, handed in by the app),
 * task challenges and gift-pack exchange. Mounted while open (app/engagement-dialogs.tsx).
 */
export function RewardDialog({ checkin }: { checkin: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && rewardDialog.close()}
      title={t("rewards.title")}
      wide
      className="reward-dialog"
    >
      <Tabs.Root defaultValue="checkin" className="tabs">
        <Tabs.List className="tabs-list" aria-label={t("rewards.title")}>
          <Tabs.Trigger value="checkin" className="tabs-trigger" data-testid="reward-tab-checkin">
            {t("rewards.tabCheckin")}
          </Tabs.Trigger>
          <Tabs.Trigger value="tasks" className="tabs-trigger" data-testid="reward-tab-tasks">
            {t("rewards.tabTasks")}
          </Tabs.Trigger>
          <Tabs.Trigger value="gift" className="tabs-trigger" data-testid="reward-tab-gift">
            {t("rewards.tabGift")}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="checkin">{checkin}</Tabs.Content>
        <Tabs.Content value="tasks">
          <TaskPanel />
        </Tabs.Content>
        <Tabs.Content value="gift">
          <GiftPanel />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}
