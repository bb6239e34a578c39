import { useEffect, useRef, useState } from "react";
import { type GiftKind, useMarkGiftsShown, useUserInfo } from "../account/api.ts";
import { SignInAutoOpen } from "../checkin/sign-in-auto-open.tsx";
import { GiftDialog } from "./gift-dialog.tsx";
import { firstStep, nextStep, type OnboardingFlags, type OnboardingStep, surveyStartStep } from "./onboarding-steps.ts";
import { SurveyDialog } from "./survey-dialog.tsx";

/** Runs spec §4 onboarding once per page load: survey → welcome gifts → sign-in reward. */
export function Onboarding() {
  const info = useUserInfo();
  const markShown = useMarkGiftsShown();
  const [step, setStep] = useState<OnboardingStep | null>(null);
  // The flags as they were when onboarding began: marking a gift shown must not reroute the chain.
  const flags = useRef<OnboardingFlags | null>(null);

  useEffect(() => {
    if (info.data && flags.current === null) {
      flags.current = info.data;
      setStep(firstStep(info.data));
    }
  }, [info.data]);

  const current = flags.current;
  if (!step || !current) return null;
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
          kind={step as GiftKind}
          onClose={() => {
            markShown.mutate([step as GiftKind]);
            advance(step);
          }}
        />
      );
    case "signin":
      return <SignInAutoOpen onDone={() => setStep("done")} />;
    default:
      return null;
  }
}
