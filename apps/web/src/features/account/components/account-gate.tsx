import { useQuery } from "@tanstack/react-query";
import { StatusCode } from "@yuelu/contracts/constants";
import { type ReactNode, useEffect } from "react";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { deletionStatusQuery } from "@/lib/account.ts";
import { ApiError } from "@/lib/api-client.ts";
import { clearSessionCookies } from "@/lib/cookies.ts";
import { refreshSession, useSession } from "@/lib/session.ts";
import { DeletionWarningDialog } from "./deletion-warning-dialog.tsx";
import "./account-gate.css";

/**
 * Spec §4 "After login", first on every route: a signed-in visitor's app waits for the deletion
 * status. While a deletion is pending only the warning dialog shows — nothing else runs, because
 * any other call would answer 10006 and the API client would sign the account out before it could
 * cancel. Anonymous visitors, and accounts known to be active, get the app (`children`) at once;
 * it stays mounted when a visitor signs in through the login frame (the dialog fetches the status
 * before it refreshes the session, so there is no wait in between).
 */
export function AccountGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const deletion = useQuery({ ...deletionStatusQuery, enabled: session.loggedIn });
  const signedOut = deletion.error instanceof ApiError && deletion.error.code === StatusCode.NotLoggedIn;

  // The hint cookies outlived the session (it expired on the server): the visitor is anonymous.
  useEffect(() => {
    if (!signedOut) return;
    clearSessionCookies();
    refreshSession();
  }, [signedOut]);

  if (!session.loggedIn || (deletion.data && deletion.data.status !== 1)) return <>{children}</>;
  if (deletion.data) return <DeletionWarningDialog status={deletion.data} />;
  if (deletion.isError && !signedOut) {
    return (
      <div className="gate-state" data-testid="account-gate-error">
        <ErrorState onRetry={() => void deletion.refetch()} />
      </div>
    );
  }
  return (
    <div className="gate-state" data-testid="account-gate-checking">
      <Spinner />
    </div>
  );
}
