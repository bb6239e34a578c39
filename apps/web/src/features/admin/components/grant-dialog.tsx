import type { AdminGrantBody } from "@yuelu/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useGrant } from "../api/users.ts";
import { positiveInt } from "../lib/numbers.ts";
import { newRequestId } from "../lib/request-id.ts";
import { ReasonField, reasonValid } from "./reason-field.tsx";

type GrantKind = AdminGrantBody["kind"];
const KINDS: GrantKind[] = ["member_days", "card_minutes", "beans"];
/** The most one grant may give (contracts' ADMIN_GRANT_MAX; the server refuses more). */
const GRANT_MAX: Record<GrantKind, number> = { member_days: 3660, card_minutes: 100_000, beans: 1_000_000 };

/**
 * Gives a user membership days, a time card or beans, with a written reason. The dialog's body is
 * mounted while it is open, and makes its requestId then: however often 'Grant' is pressed (or the
 * answer lost and the call sent again), one opening grants once.
 */
export function GrantDialog({ userId, open, onClose }: { userId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={t("admin.users.grantTitle", { id: userId })}>
      {open && <GrantForm userId={userId} onDone={onClose} />}
    </Dialog>
  );
}

function GrantForm({ userId, onDone }: { userId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [requestId] = useState(newRequestId);
  const [kind, setKind] = useState<GrantKind>("member_days");
  const [amount, setAmount] = useState("");
  const [validDays, setValidDays] = useState("365");
  const [reason, setReason] = useState("");
  const [tried, setTried] = useState(false);
  const grant = useGrant(userId);

  const amountValue = positiveInt(amount, GRANT_MAX[kind]);
  const validValue = kind === "card_minutes" ? positiveInt(validDays, 3660) : null;
  const ok = amountValue !== null && reasonValid(reason) && (kind !== "card_minutes" || validValue !== null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!ok || amountValue === null) return;
    const body: AdminGrantBody = { requestId, kind, amount: amountValue, reason: reason.trim() };
    if (kind === "card_minutes" && validValue !== null) body.validDays = validValue;
    grant.mutate(body, {
      onSuccess: (result) => {
        toast.success(result.replayed ? t("admin.users.grantReplayed") : t("admin.users.granted"));
        onDone();
      },
    });
  };

  return (
    <form className="admin-form" onSubmit={submit} noValidate data-testid="grant-form" data-request-id={requestId}>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-kind`}>
          {t("admin.users.grantKind")}
        </label>
        <select
          id={`${id}-kind`}
          className="input select"
          value={kind}
          onChange={(e) => setKind(e.target.value as GrantKind)}
          data-testid="grant-kind"
        >
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`admin.users.grantKinds.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="admin-form-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-amount`}>
            {t("admin.users.grantAmount")}
          </label>
          <input
            id={`${id}-amount`}
            className="input"
            inputMode="numeric"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={(tried && amountValue === null) || undefined}
            data-testid="grant-amount"
          />
          <p className={tried && amountValue === null ? "error-text" : "field-hint"}>
            {t("admin.gifts.max", { max: GRANT_MAX[kind] })}
          </p>
        </div>
        {kind === "card_minutes" && (
          <div className="field">
            <label className="field-label" htmlFor={`${id}-valid`}>
              {t("admin.users.validDays")}
            </label>
            <input
              id={`${id}-valid`}
              className="input"
              inputMode="numeric"
              value={validDays}
              onChange={(e) => setValidDays(e.target.value)}
              aria-invalid={(tried && validValue === null) || undefined}
            />
          </div>
        )}
      </div>
      <ReasonField value={reason} onChange={setReason} showError={tried} />
      <p className="field-hint admin-mono">{t("admin.users.requestIdNote", { id: requestId })}</p>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onDone}>
          {t("admin.act.cancel")}
        </Button>
        <Button type="submit" disabled={grant.isPending} data-testid="grant-submit">
          {grant.isPending ? t("admin.users.granting") : t("admin.users.grantSubmit")}
        </Button>
      </div>
    </form>
  );
}
