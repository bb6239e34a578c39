import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { ReasonField, reasonValid } from "./reason-field.tsx";

/**
 * A confirmation that needs a written reason (disable an account, refund an order): the question,
 * the reason, and the action, which stays disabled while it runs. The caller closes it on success.
 */
export function ReasonDialog({
  open,
  title,
  text,
  confirmLabel,
  pendingLabel,
  danger,
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: ReactNode;
  text: ReactNode;
  confirmLabel: ReactNode;
  pendingLabel?: ReactNode;
  danger?: boolean;
  pending?: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={title}>
      {open && (
        <ReasonForm
          text={text}
          confirmLabel={pending && pendingLabel ? pendingLabel : confirmLabel}
          danger={danger}
          pending={pending}
          onConfirm={onConfirm}
          onClose={onClose}
          cancel={t("admin.act.cancel")}
        />
      )}
    </Dialog>
  );
}

function ReasonForm(props: {
  text: ReactNode;
  confirmLabel: ReactNode;
  danger?: boolean;
  pending?: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
  cancel: string;
}) {
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (reasonValid(reason)) props.onConfirm(reason.trim());
  };
  return (
    <form className="admin-form" onSubmit={submit} noValidate>
      <p>{props.text}</p>
      <ReasonField value={reason} onChange={setReason} showError={tried} />
      <div className="dialog-actions">
        <Button variant="secondary" onClick={props.onClose}>
          {props.cancel}
        </Button>
        <Button
          type="submit"
          variant={props.danger ? "danger" : "primary"}
          disabled={props.pending}
          data-testid="confirm"
        >
          {props.confirmLabel}
        </Button>
      </div>
    </form>
  );
}
