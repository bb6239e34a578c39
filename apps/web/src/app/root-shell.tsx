import { Outlet } from "react-router-dom";
import { Toaster } from "@/components/toaster.tsx";
import { AccountGate } from "@/features/account/components/account-gate.tsx";
import { CheckinOffer } from "@/features/checkin/components/checkin-offer.tsx";
import { SignInAutoOpen } from "@/features/checkin/components/sign-in-auto-open.tsx";
import { Onboarding } from "@/features/onboarding/components/onboarding.tsx";
import { LoginDialog } from "@/features/session/components/login-dialog.tsx";
import { SessionEffects } from "@/features/session/components/session-effects.tsx";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { useRefreshOnPurchase } from "@/lib/purchase-events.ts";
import { useSession } from "@/lib/session.ts";
import { CashierHost } from "./cashier-host.tsx";
import { DocumentTitle } from "./document-title.tsx";
import { EngagementDialogs } from "./engagement-dialogs.tsx";

/**
 * Wraps every route: title, session bookkeeping, the login dialog, and — behind the account gate,
 * which answers first for a signed-in visitor (spec §4 "After login") — the page, onboarding and
 * the reward, shop and message dialogs. Onboarding's welcome card carries the check-in feature's
 * offer (its button closes the card and opens the reward dialog), and onboarding with nothing to
 * announce ends with the check-in invitation: both composed here.
 * The cashier sits outside the gate (anonymous visitors see its plans) and before the login
 * dialog, which its 'log in to view' opens on top of it.
 */
export function RootShell() {
  const session = useSession();
  useRefreshOnPurchase();
  return (
    <>
      <DocumentTitle />
      <SessionEffects />
      <AccountGate>
        <Outlet />
        {session.loggedIn && (
          <>
            <Onboarding
              signInStep={(done) => <SignInAutoOpen onDone={done} />}
              checkinOffer={(close) => (
                <CheckinOffer
                  onGo={() => {
                    close();
                    rewardDialog.open();
                  }}
                />
              )}
            />
            <EngagementDialogs />
          </>
        )}
      </AccountGate>
      <CashierHost />
      <LoginDialog />
      <Toaster />
    </>
  );
}
