import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";

/**
 * A secret to copy (a new API key, a webhook's signing secret) with what the user must know about
 * it. `mustConfirm`: no ×, no Esc — the user says they saved it (a key is never shown again).
 */
export function SecretDialog({
  open,
  title,
  secret,
  warning,
  closeLabel,
  mustConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  secret: string;
  warning: ReactNode;
  closeLabel: string;
  mustConfirm?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={title} hideClose={mustConfirm}>
      <p className="integrations-warning" role="note">
        {warning}
      </p>
      <div className="secret-box">
        <code data-testid="secret-value">{secret}</code>
        <CopyButton text={secret} testId="secret-copy" label={t("common.copy")} />
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose} data-testid="secret-done">
          {closeLabel}
        </Button>
      </div>
    </Dialog>
  );
}
