import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { api } from "@/lib/api-client.ts";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { currentSession, ensureTempCode, useSession } from "@/lib/session.ts";
import { rememberInvite } from "@/lib/sign-in-intent.ts";
import { removeStorage, StorageKey, writeStorage } from "@/lib/storage.ts";

/**
 * Spec §4 bookkeeping: anonymous visitors get a temporary code (registered with virtual_login),
 * the current route path is stored, and on page unload the openSign flag is set to 1 and the
 * one-time voice-bank and temporary-code keys are removed.
 * An anonymous visitor who arrives by an invite link (`?invite=CODE`, issue 43) lands on the sign-in,
 * the code kept for the tab and applied by the login page.
 */
export function SessionEffects() {
  const session = useSession();
  const location = useLocation();

  useEffect(() => {
    if (session.loggedIn) return;
    const { code, created } = ensureTempCode();
    if (created)
      void api("/api/v3/user/virtual_login", { params: { tempCode: code, source: 0 }, silent: true }).catch(() => {});
  }, [session.loggedIn]);

  // The address the page was loaded with, once: the dialog, closed, stays closed while the visitor looks around.
  const arrivedWith = useRef(location.search);
  useEffect(() => {
    const code = rememberInvite(arrivedWith.current);
    if (code && !currentSession().loggedIn) loginDialog.open();
  }, []);

  useEffect(() => {
    writeStorage(StorageKey.routePath, location.pathname + location.search);
  }, [location.pathname, location.search]);

  useEffect(() => {
    const onUnload = () => {
      writeStorage(StorageKey.openSign, "1");
      removeStorage(StorageKey.voiceBank);
      removeStorage(StorageKey.tempCode);
    };
    window.addEventListener("pagehide", onUnload);
    return () => window.removeEventListener("pagehide", onUnload);
  }, []);

  return null;
}
