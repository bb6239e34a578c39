import type { AdminMe } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { RequireLogin } from "@/components/require-login.tsx";
import { StandaloneMark, StandalonePage } from "@/components/standalone-page.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { ApiError } from "@/lib/api-client.ts";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { useSession } from "@/lib/session.ts";
import { useAdminMe } from "../api/get-me.ts";

/**
 * Who may see the console: a visitor is asked to sign in (as every personal page does); a signed-in
 * account without the admin role is told how the role is granted; an operator gets the console.
 * The server decides (GET /admin/me answers 10001 or 10007): this only shows its answer.
 */
export function AdminGate({ children }: { children: (me: AdminMe) => ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  if (!session.loggedIn) {
    return (
      <GateFrame title={t("admin.title")} testId="admin-sign-in">
        <p className="muted">{t("admin.gate.signIn")}</p>
        {/* the app's own 'sign in to view', which opens the login dialog */}
        <RequireLogin>{null}</RequireLogin>
      </GateFrame>
    );
  }
  return <RoleGate>{children}</RoleGate>;
}

function RoleGate({ children }: { children: (me: AdminMe) => ReactNode }) {
  const { t } = useTranslation();
  const me = useAdminMe();
  if (me.data) return <>{children(me.data)}</>;
  if (me.isPending) return <Spinner label={t("admin.gate.checking")} />;
  const code = me.error instanceof ApiError ? me.error.code : 0;
  if (code === StatusCode.NotLoggedIn) {
    return (
      <GateFrame title={t("admin.title")}>
        <p className="muted">{t("admin.gate.signInAgain")}</p>
        <Button onClick={loginDialog.open}>{t("common.login")}</Button>
      </GateFrame>
    );
  }
  if (code === StatusCode.AccessDenied) return <NoAccess />;
  return <ErrorState onRetry={() => void me.refetch()} />;
}

/** A signed-in account without the admin role: what the role is and how it is given. */
export function NoAccess() {
  const { t } = useTranslation();
  return (
    <GateFrame title={t("admin.gate.noAccessTitle")} testId="admin-no-access">
      <p className="muted">{t("admin.gate.noAccessText")}</p>
      <code className="admin-command">npm run admin -- grant &lt;phone&gt;</code>
      <p className="muted">{t("admin.gate.noAccessAfter")}</p>
      <Link className="btn btn-secondary" to={paths.landing}>
        {t("common.backHome")}
      </Link>
    </GateFrame>
  );
}

function GateFrame({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <StandalonePage testId={testId}>
      <StandaloneMark>⚙</StandaloneMark>
      <h1>{title}</h1>
      {children}
    </StandalonePage>
  );
}
