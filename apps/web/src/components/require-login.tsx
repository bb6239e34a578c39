import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { useSession } from "@/lib/session.ts";
import { Button } from "./ui/button.tsx";
import { EmptyState } from "./ui/states.tsx";

/**
 * Pages with personal data show "sign in to view" (spec §5's 'log in to view') to anonymous
 * visitors. A signed-in account reaches this only once the account gate (app/root-shell.tsx) knows
 * it is not being deleted, so the children's queries may run.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  if (session.loggedIn) return <>{children}</>;
  return (
    <EmptyState
      icon="🔒"
      text={t("empty.loginFirst")}
      action={<Button onClick={loginDialog.open}>{t("common.login")}</Button>}
    />
  );
}
