import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";

/** An endpoint's signing secret, to copy, with what to do with it; only the operator's click closes it. */
export function WebhookSecretDialog({
  secret,
  title,
  onClose,
}: {
  secret: string | null;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={secret !== null} onOpenChange={(o) => !o && onClose()} title={title} hideClose>
      <p className="admin-warning" role="note">
        {t("admin.webhooks.secretWarning")}
      </p>
      <div className="admin-secret">
        <code className="admin-mono admin-secret-value" data-testid="webhook-secret">
          {secret}
        </code>
        <CopyButton text={secret ?? ""} testId="webhook-secret-copy" />
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose} data-testid="webhook-secret-done">
          {t("admin.webhooks.secretSaved")}
        </Button>
      </div>
    </Dialog>
  );
}
