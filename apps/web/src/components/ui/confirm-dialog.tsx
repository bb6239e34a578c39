import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";

/** A yes/no question over the page; stays open while the action runs, the caller closes it on success. */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  danger,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: ReactNode;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={typeof text === "string" ? text : undefined}
    >
      <p>{text}</p>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button variant={danger ? "danger" : "primary"} onClick={onConfirm} disabled={pending} data-testid="confirm">
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
