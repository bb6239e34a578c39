import { useSyncExternalStore } from "react";
import { readCookie } from "../../lib/cookies.ts";
import { readStorage, StorageKey, writeStorage } from "../../lib/storage.ts";

export interface Session {
  loggedIn: boolean;
  userId: string;
  userName: string;
}

const listeners = new Set<() => void>();
let snapshot = read();
writeStorage(StorageKey.userStatus, snapshot.loggedIn ? "1" : "0");

/** Spec §4: logged in when both the userid and the name cookies are present. */
function read(): Session {
  const userId = readCookie("userid") ?? "";
  const userName = readCookie("name") ?? "";
  return { loggedIn: Boolean(userId && userName), userId, userName };
}

/** Re-reads the cookies (after the login frame reports success, or logout) and notifies subscribers. */
export function refreshSession(): Session {
  const next = read();
  if (next.loggedIn !== snapshot.loggedIn || next.userId !== snapshot.userId || next.userName !== snapshot.userName) {
    snapshot = next;
    writeStorage(StorageKey.userStatus, next.loggedIn ? "1" : "0");
    for (const l of listeners) l();
  }
  return snapshot;
}

export function useSession(): Session {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
}

/** An anonymous visitor's temporary code: a random unique string created once and kept locally. */
export function ensureTempCode(): { code: string; created: boolean } {
  const existing = readStorage(StorageKey.tempCode);
  if (existing) return { code: existing, created: false };
  const code = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  writeStorage(StorageKey.tempCode, code);
  return { code, created: true };
}
