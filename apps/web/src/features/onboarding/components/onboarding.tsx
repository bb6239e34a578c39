import { type ReactNode, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { useUserInfo } from "@/lib/account.ts";
import { anyAppDialogOpen } from "@/lib/app-dialogs.ts";
import { isInterruptible } from "@/lib/busy.ts";
import { useMarkGiftsShown } from "../api/mark-gifts-shown.ts";
import {
  firstStep,
  grantedGifts,
  nextStep,
  type OnboardingFlags,
  type OnboardingStep,
  surveyStartStep,
} from "../lib/onboarding-steps.ts";
import { isQuietPath } from "../lib/quiet-paths.ts";
import { WelcomeGiftsDialog } from "./gift-dialog.tsx";
import { SurveyDialog } from "./survey-dialog.tsx";

/** How often onboarding looks again whether what it waits for (another dialog, an upload) is over. */
const WAIT_MS = 300;

/**
 * Runs spec §4 onboarding once per page load as one surface (issue 43): the survey (both steps in
 * one dialog), then the welcome gifts together in one card that also offers the check-in — two
 * dialogs at most before the user can act. With nothing to ask or announce, it goes on to the
 * check-in invitation. The check-in belongs to the check-in feature, so the app hands it in: the
 * card's line (`checkinOffer`, given a `close` for the card) and the invitation (`signInStep`,
 * which calls `done` when it has finished).
 * It does not cover what the user came to do: while another dialog is open (the cashier over the
 * plan they chose before signing in), an upload is being sent or a QR waits to be paid, it waits
 * to begin. Nothing of it shows over the operator console (/admin): there it waits, and goes on
 * where it was once the operator opens a page of the app.
 */
export function Onboarding({
  signInStep,
  checkinOffer,
}: {
  signInStep: (done: () => void) => ReactNode;
  checkinOffer: (close: () => void) => ReactNode;
}) {
  const info = useUserInfo();
  const markShown = useMarkGiftsShown();
  const [step, setStep] = useState<OnboardingStep | null>(null);
  const [begun, setBegun] = useState(false);
  const quiet = isQuietPath(useLocation().pathname);
  // The flags as they were when onboarding began: marking a gift shown must not reroute the chain.
  const flags = useRef<OnboardingFlags | null>(null);

  useEffect(() => {
    if (info.data && flags.current === null) {
      flags.current = info.data;
      setStep(firstStep(info.data));
    }
  }, [info.data]);

  // Its dialogs wait until nothing else is on screen; the check-in invitation has its own waiting.
  const needsScreen = step === "survey" || step === "gifts";
  useEffect(() => {
    if (begun || quiet || !needsScreen) return;
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      if (!anyAppDialogOpen() && isInterruptible()) setBegun(true);
      else timer = setTimeout(check, WAIT_MS);
    };
    check();
    return () => clearTimeout(timer);
  }, [begun, quiet, needsScreen]);

  const current = flags.current;
  if (!step || !current || quiet) return null;
  if (needsScreen && !begun) return null;
  const advance = (from: OnboardingStep) => setStep(nextStep(from, current));

  switch (step) {
    case "survey":
      return <SurveyDialog startStep={surveyStartStep(current)} onDone={() => advance("survey")} />;
    case "gifts": {
      const kinds = grantedGifts(current);
      const close = () => {
        markShown.mutate(kinds);
        advance("gifts");
      };
      return <WelcomeGiftsDialog kinds={kinds} extra={checkinOffer(close)} onClose={close} />;
    }
    case "signin":
      return signInStep(() => setStep("done"));
    default:
      return null;
  }
}
