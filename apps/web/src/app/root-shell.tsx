import { Outlet } from "react-router-dom";
import { Toaster } from "sonner";
import { AfterLogin } from "../features/account/after-login.tsx";
import { RewardDialog } from "../features/checkin/reward-dialog.tsx";
import { LoginDialog } from "../features/session/login-dialog.tsx";
import { SessionEffects } from "../features/session/session-effects.tsx";
import { DocumentTitle } from "./document-title.tsx";

/** Wraps every route: title, session bookkeeping, the login dialog and the after-login flow. */
export function RootShell() {
  return (
    <>
      <DocumentTitle />
      <SessionEffects />
      <Outlet />
      <LoginDialog />
      <AfterLogin />
      <RewardDialog />
      <Toaster position="top-center" richColors closeButton />
    </>
  );
}
