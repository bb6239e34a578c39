import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button.tsx";
import { Dialog } from "../../components/ui/dialog.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { logout } from "../session/logout.ts";
import { type DeletionStatus, useCancelDeletion } from "./api.ts";

/** Spec §4: an account being deleted must choose: continue (sign out) or abandon (cancel and reload). */
export function DeletionWarningDialog({ status }: { status: DeletionStatus }) {
  const { t } = useTranslation();
  const cancel = useCancelDeletion();
  return (
    <Dialog open onOpenChange={() => {}} title={t("deletion.title")} hideClose>
      <p>{t("deletion.text", { date: formatDateTime(status.purgeTime).slice(0, 10) })}</p>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={logout}>
          {t("deletion.continue")}
        </Button>
        <Button
          disabled={cancel.isPending}
          onClick={() => cancel.mutate(undefined, { onSuccess: () => window.location.reload() })}
        >
          {t("deletion.abandon")}
        </Button>
      </div>
    </Dialog>
  );
}
