import type { WelcomeGiftKind } from "@yuelu/contracts";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { useUserInfo } from "@/lib/account.ts";
import { useMarkGiftsShown } from "../api/mark-gifts-shown.ts";
import {
  firstStep,
  nextStep,
  type OnboardingFlags,
  type OnboardingStep,
  surveyStartStep,
} from "../lib/onboarding-steps.ts";
import { isQuietPath } from "../lib/quiet-paths.ts";
import { GiftDialog } from "./gift-dialog.tsx";
import { SurveyDialog } from "./survey-dialog.tsx";

/**
 * Runs spec §4 onboarding once per page load: survey → welcome gifts → the sign-in reward. The
 * last step belongs to the check-in feature, so the app hands it in (`signInStep`): it renders it
 * and calls `done` when it has finished. Nothing of it shows over the operator console (/admin):
 * there it waits, and goes on where it was once the operator opens a page of the app.
 */
export function Onboarding({ signInStep }: { signInStep: (done: () => void) => ReactNode }) {
  const info = useUserInfo();
  const markShown = useMarkGiftsShown();
  const [step, setStep] = useState<OnboardingStep | null>(null);
  const quiet = isQuietPath(useLocation().pathname);
  // The flags as they were when onboarding began: marking a gift shown must not reroute the chain.
  const flags = useRef<OnboardingFlags | null>(null);

  useEffect(() => {
    if (info.data && flags.current === null) {
      flags.current = info.data;
      setStep(firstStep(info.data));
    }
  }, [info.data]);

  const current = flags.current;
  if (!step || !current || quiet) return null;
  const advance = (from: OnboardingStep) => setStep(nextStep(from, current));

  switch (step) {
    case "survey":
      return <SurveyDialog startStep={surveyStartStep(current)} onDone={() => advance("survey")} />;
    case "new_user":
    case "invite":
    case "black_card":
      return (
        <GiftDialog
          key={step}
          kind={step as WelcomeGiftKind}
          onClose={() => {
            markShown.mutate([step as WelcomeGiftKind]);
            advance(step);
          }}
        />
      );
    case "signin":
      return signInStep(() => setStep("done"));
    default:
      return null;
  }
}
