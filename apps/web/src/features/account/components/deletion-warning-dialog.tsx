import type { DeleteAccountStatus } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { logout } from "@/lib/logout.ts";
import { useCancelDeletion } from "../api/cancel-deletion.ts";

/** Spec §4: an account being deleted must choose: continue (sign out) or abandon (cancel and reload). */
export function DeletionWarningDialog({ status }: { status: DeleteAccountStatus }) {
  const { t } = useTranslation();
  const cancel = useCancelDeletion();
  return (
    <Dialog open onOpenChange={() => {}} title={t("deletion.title")} hideClose>
      <p>{t("deletion.text", { date: formatDateTime(status.purgeTime).slice(0, 10) })}</p>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={logout} data-testid="deletion-continue">
          {t("deletion.continue")}
        </Button>
        <Button
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: () => window.location.reload() })}
          data-testid="deletion-abandon"
        >
          {cancel.isPending ? t("deletion.abandoning") : t("deletion.abandon")}
        </Button>
      </div>
    </Dialog>
  );
}
