import { useQuery } from "@tanstack/react-query";
import { Onboarding } from "../onboarding/onboarding.tsx";
import { useSession } from "../session/session-store.ts";
import { deletionStatusQuery } from "./api.ts";
import { DeletionWarningDialog } from "./deletion-warning-dialog.tsx";

/**
 * Spec §4 "After login": first ask whether the account is being deleted; if so, the warning dialog,
 * otherwise the regular loads (user info and friends, enabled by the same answer) and onboarding.
 */
export function AfterLogin() {
  const session = useSession();
  const deletion = useQuery({ ...deletionStatusQuery, enabled: session.loggedIn });
  if (!session.loggedIn || !deletion.data) return null;
  if (deletion.data.status === 1) return <DeletionWarningDialog status={deletion.data} />;
  return <Onboarding />;
}
