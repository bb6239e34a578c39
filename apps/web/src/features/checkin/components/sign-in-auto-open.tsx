import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { SIGN_DIALOG_DELAY_MS } from "@/config/env.ts";
import { anyAppDialogOpen, rewardDialog } from "@/lib/app-dialogs.ts";
import { isInterruptible } from "@/lib/busy.ts";
import { readStorage, StorageKey, writeStorage } from "@/lib/storage.ts";
import { checkinQuery } from "../api/get-checkin.ts";
import { canInviteOn, localDay, shouldInvite } from "../lib/checkin-rules.ts";

const RETRY_MS = 1000;

/** Marks today's invitation as made in this browser (the invitation itself, or the welcome card's line). */
export function markInvitedToday(): void {
  writeStorage(StorageKey.checkinOffered, localDay());
  writeStorage(StorageKey.openSign, "0");
}

/**
 * Spec §4 "try the sign-in reward", made quiet (issue 43): the reward dialog opens by itself after a
 * delay when the user has not signed today and the openSign flag is unset or 1 — at most once a day
 * per browser, and only on the landing page or My records (`canInviteOn`): never over a transcript.
 * Elsewhere it waits for the user to reach one of those pages. It never opens over something else:
 * while a dialog is open, an upload is being sent or a QR waits to be paid, it waits (checking every
 * second) until nothing is, and leaving the page stops it. Calls `onDone` once it has opened, or when
 * there is nothing to offer today. The header's rewards button opens the same dialog at any time.
 */
export function SignInAutoOpen({ onDone }: { onDone: () => void }) {
  const checkin = useQuery(checkinQuery);
  const allowedHere = canInviteOn(useLocation().pathname);
  // A ref, so a parent re-render (new callback) does not restart the delay.
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => {
    if (checkin.isError) return done.current();
    if (!checkin.data) return;
    const offered = readStorage(StorageKey.checkinOffered);
    if (!shouldInvite(checkin.data.todaySign, readStorage(StorageKey.openSign), offered)) return done.current();
    if (!allowedHere) return;
    let timer: ReturnType<typeof setTimeout>;
    const tryOpen = () => {
      // another tab of this browser may have offered it meanwhile
      if (readStorage(StorageKey.checkinOffered) === localDay()) return done.current();
      // the user opened the reward dialog themselves: that was today's invitation
      if (rewardDialog.isOpen()) {
        markInvitedToday();
        return done.current();
      }
      if (anyAppDialogOpen() || !isInterruptible()) {
        timer = setTimeout(tryOpen, RETRY_MS);
        return;
      }
      markInvitedToday();
      rewardDialog.open();
      done.current();
    };
    timer = setTimeout(tryOpen, SIGN_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [checkin.data, checkin.isError, allowedHere]);
  return null;
}
