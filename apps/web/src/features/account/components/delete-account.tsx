import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { useDeleteAccount } from "../api/delete-account.ts";
import "./delete-account.css";

/**
 * Account deletion: what it means, and a confirmation. Once asked, the account gate shows the
 * deletion warning (continue: sign out; abandon: cancel and reload), as after any later sign-in.
 */
export function DeleteAccount() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();
  return (
    <section className="delete-account" data-testid="delete-account">
      <h2 className="section-title">{t("personal.deleteTitle")}</h2>
      <p className="delete-account-text">{t("personal.deleteText")}</p>
      <Button variant="danger" onClick={() => setConfirming(true)} data-testid="delete-account-start">
        {t("personal.deleteButton")}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t("personal.deleteConfirmTitle")}
        text={t("personal.deleteConfirmText")}
        confirmLabel={t("personal.deleteConfirm")}
        danger
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
