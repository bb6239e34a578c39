import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { SIGN_DIALOG_DELAY_MS } from "@/config/env.ts";
import { rewardDialog } from "@/lib/app-dialogs.ts";
import { isInterruptible } from "@/lib/busy.ts";
import { readStorage, StorageKey, writeStorage } from "@/lib/storage.ts";
import { checkinQuery } from "../api/get-checkin.ts";
import { shouldAutoOpenSign } from "../lib/checkin-rules.ts";

/**
 * Spec §4 "try the sign-in reward": opens the reward dialog after a delay when the user has not
 * signed today and the openSign flag is unset or 1, setting the flag to 0. Calls `onDone` either way.
 * It never opens over something else: while a dialog is open, an upload is being sent or a QR waits
 * to be paid, it waits (checking every second) until nothing is.
 */
const RETRY_MS = 1000;

export function SignInAutoOpen({ onDone }: { onDone: () => void }) {
  const checkin = useQuery(checkinQuery);
  // A ref, so a parent re-render (new callback) does not restart the delay.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (checkin.isError) return done.current();
    if (!checkin.data) return;
    if (!shouldAutoOpenSign(checkin.data.todaySign, readStorage(StorageKey.openSign))) return done.current();
    let timer: ReturnType<typeof setTimeout>;
    const tryOpen = () => {
      if (!isInterruptible()) {
        timer = setTimeout(tryOpen, RETRY_MS);
        return;
      }
      writeStorage(StorageKey.openSign, "0");
      rewardDialog.open();
      done.current();
    };
    timer = setTimeout(tryOpen, SIGN_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [checkin.data, checkin.isError]);
  return null;
}
