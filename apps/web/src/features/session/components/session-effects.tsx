import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { api } from "@/lib/api-client.ts";
import { ensureTempCode, useSession } from "@/lib/session.ts";
import { removeStorage, StorageKey, writeStorage } from "@/lib/storage.ts";

/**
 * Spec §4 bookkeeping: anonymous visitors get a temporary code (registered with virtual_login),
 * the current route path is stored, and on page unload the openSign flag is set to 1 and the
 * one-time voice-bank and temporary-code keys are removed.
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
