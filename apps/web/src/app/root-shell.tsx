import { Outlet } from "react-router-dom";
import { Toaster } from "sonner";
import { AccountGate } from "@/features/account/components/account-gate.tsx";
import { RewardDialog } from "@/features/checkin/components/reward-dialog.tsx";
import { SignInAutoOpen } from "@/features/checkin/components/sign-in-auto-open.tsx";
import { Onboarding } from "@/features/onboarding/components/onboarding.tsx";
import { LoginDialog } from "@/features/session/components/login-dialog.tsx";
import { SessionEffects } from "@/features/session/components/session-effects.tsx";
import { useSession } from "@/lib/session.ts";
import { DocumentTitle } from "./document-title.tsx";

/**
 * Wraps every route: title, session bookkeeping, the login dialog, and — behind the account gate,
 * which answers first for a signed-in visitor (spec §4 "After login") — the page, onboarding and
 * the reward dialog. Onboarding ends with the check-in feature's sign-in reward, composed here.
 */
export function RootShell() {
  const session = useSession();
  return (
    <>
      <DocumentTitle />
      <SessionEffects />
      <AccountGate>
        <Outlet />
        {session.loggedIn && (
          <>
            <Onboarding signInStep={(done) => <SignInAutoOpen onDone={done} />} />
            <RewardDialog />
          </>
        )}
      </AccountGate>
      <LoginDialog />
      <Toaster position="top-center" richColors closeButton />
    </>
  );
}
