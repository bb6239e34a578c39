import { readCookie } from "./cookies.ts";
import { createStore, useStore } from "./create-store.ts";
import { readStorage, StorageKey, writeStorage } from "./storage.ts";

export interface Session {
  loggedIn: boolean;
  userId: string;
  userName: string;
}

/** Spec §4: logged in when both the userid and the name cookies are present. */
function readSession(): Session {
  const userId = readCookie("userid") ?? "";
  const userName = readCookie("name") ?? "";
  return { loggedIn: Boolean(userId && userName), userId, userName };
}

const sessionStore = createStore<Session>(readSession());
writeStorage(StorageKey.userStatus, sessionStore.get().loggedIn ? "1" : "0");

/** Re-reads the cookies (after the login frame reports success, or logout) and notifies subscribers. */
export function refreshSession(): Session {
  const next = readSession();
  const current = sessionStore.get();
  if (next.loggedIn !== current.loggedIn || next.userId !== current.userId || next.userName !== current.userName) {
    sessionStore.set(next);
    writeStorage(StorageKey.userStatus, next.loggedIn ? "1" : "0");
  }
  return sessionStore.get();
}

export function useSession(): Session {
  return useStore(sessionStore);
}

export function currentSession(): Session {
  return sessionStore.get();
}

/** An anonymous visitor's temporary code: a random unique string created once and kept locally. */
export function ensureTempCode(): { code: string; created: boolean } {
  const existing = readStorage(StorageKey.tempCode);
  if (existing) return { code: existing, created: false };
  const code = `t_${crypto.randomUUID().replaceAll("-", "")}`;
  writeStorage(StorageKey.tempCode, code);
  return { code, created: true };
}
