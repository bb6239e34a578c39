import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Spinner } from "@/components/ui/states.tsx";
import { cashierDialog } from "@/lib/app-dialogs.ts";

/** The cashier and the QR library load when it first opens: the landing page does not pay for them. */
const CashierDialog = lazy(() => import("@/features/cashier/components/cashier-dialog.tsx"));

/** Renders the cashier while openCashier() has it open (lib/app-dialogs.ts); closing unmounts it. */
export function CashierHost() {
  const { t } = useTranslation();
  const request = cashierDialog.useRequest();
  if (!request) return null;
  return (
    <Suspense
      fallback={
        <Dialog open onOpenChange={(open) => !open && cashierDialog.close()} title={t("cashier.title")} wide>
          <Spinner />
        </Dialog>
      }
    >
      <CashierDialog key={request.seq} request={request} />
    </Suspense>
  );
}
