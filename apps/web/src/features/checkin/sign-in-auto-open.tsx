import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { SIGN_DIALOG_DELAY_MS } from "../../config/env.ts";
import { readStorage, StorageKey, writeStorage } from "../../lib/storage.ts";
import { checkinQuery } from "./api.ts";
import { rewardDialog } from "./reward-dialog-store.ts";

/** Spec §4: opens only if not signed today and the openSign flag is unset or 1; after a delay, setting it to 0. */
export function shouldAutoOpenSign(todaySign: boolean, flag: string | null): boolean {
  return !todaySign && (flag === null || flag === "1");
}

export function SignInAutoOpen({ onDone }: { onDone: () => void }) {
  const checkin = useQuery(checkinQuery);
  // A ref, so a parent re-render (new callback) does not restart the delay.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (checkin.isError) return done.current();
    if (!checkin.data) return;
    if (!shouldAutoOpenSign(checkin.data.todaySign, readStorage(StorageKey.openSign))) return done.current();
    const timer = setTimeout(() => {
      writeStorage(StorageKey.openSign, "0");
      rewardDialog.open();
      done.current();
    }, SIGN_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [checkin.data, checkin.isError]);
  return null;
}
