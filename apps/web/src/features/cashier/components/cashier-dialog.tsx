import * as Tabs from "@radix-ui/react-tabs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { type CashierRequest, type CashierTab, cashierDialog } from "@/lib/app-dialogs.ts";
import { CardTab } from "./card-tab.tsx";
import { MembershipTab } from "./membership-tab.tsx";
import "./cashier-dialog.css";

const TAB_TITLE: Record<CashierTab, string> = { membership: "cashier.tabMembership", card: "cashier.tabCard" };

/**
 * Spec §2 cashier dialog: the tabs asked for (openCashier's options), the default one open, the
 * preselected goods on the tab that sells it. Only the open tab is mounted, so closing the dialog
 * or switching tabs stops its order's polling.
 */
export default function CashierDialog({ request }: { request: CashierRequest }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<CashierTab>(request.defaultTab);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && cashierDialog.close()}
      title={request.tabs.length === 1 ? t(TAB_TITLE[tab]) : t("cashier.title")}
      wide
      className="cashier-dialog"
      description={t("cashier.scanHint")}
    >
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as CashierTab)} className="tabs">
        {request.tabs.length > 1 && (
          <Tabs.List className="tabs-list" aria-label={t("cashier.title")}>
            {request.tabs.map((id) => (
              <Tabs.Trigger key={id} value={id} className="tabs-trigger" data-testid={`cashier-tab-${id}`}>
                {t(TAB_TITLE[id])}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        )}
        {request.tabs.includes("membership") && (
          <Tabs.Content value="membership">
            <MembershipTab goodsId={request.goodsId} />
          </Tabs.Content>
        )}
        {request.tabs.includes("card") && (
          <Tabs.Content value="card">
            <CardTab goodsId={request.goodsId} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </Dialog>
  );
}
