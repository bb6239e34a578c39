import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { loginDialog } from "../features/session/login-dialog-store.ts";
import { useSession } from "../features/session/session-store.ts";
import { Button } from "./ui/button.tsx";
import { EmptyState } from "./ui/states.tsx";

/** Pages with personal data show "sign in to view" (spec §5's 'log in to view') to anonymous visitors. */
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
