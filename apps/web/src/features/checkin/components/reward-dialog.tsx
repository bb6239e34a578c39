import * as Tabs from "@radix-ui/react-tabs";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { useSession } from "@/lib/session.ts";
import { CheckinPanel } from "./checkin-panel.tsx";

/** Spec §2 reward dialog: daily check-in, task challenges, gift-pack exchange. */
export function RewardDialog() {
  const open = rewardDialog.useIsOpen();
  const session = useSession();
  const { t } = useTranslation();
  if (!session.loggedIn) return null;
  return (
    <Dialog open={open} onOpenChange={rewardDialog.setOpen} title={t("checkin.title")} wide>
      <Tabs.Root defaultValue="checkin" className="tabs">
        <Tabs.List className="tabs-list" aria-label={t("checkin.title")}>
          <Tabs.Trigger value="checkin" className="tabs-trigger">
            {t("checkin.tabCheckin")}
          </Tabs.Trigger>
          <Tabs.Trigger value="tasks" className="tabs-trigger">
            {t("checkin.tabTasks")}
          </Tabs.Trigger>
          <Tabs.Trigger value="gift" className="tabs-trigger">
            {t("checkin.tabGift")}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="checkin">
          <CheckinPanel />
        </Tabs.Content>
        <Tabs.Content value="tasks">
          <EmptyState icon="★" text={t("checkin.tasksSoon")} />
        </Tabs.Content>
        <Tabs.Content value="gift">
          <EmptyState icon="✉" text={t("checkin.giftSoon")} />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}
