/** The onboarding dialogs, in the order spec §4 shows them. */
export type OnboardingStep = "survey" | "new_user" | "invite" | "black_card" | "signin" | "done";

export interface OnboardingFlags {
  infoCollectIdentity: string;
  infoCollectChannel: string;
  received: boolean;
  receiveSuccess: boolean;
  blackProReceive: boolean;
}

/** Where onboarding starts: the survey while identity or channel is missing, else the gifts. */
export function firstStep(info: OnboardingFlags): OnboardingStep {
  if (!info.infoCollectIdentity || !info.infoCollectChannel) return "survey";
  return nextStep("survey", info);
}

/**
 * The step after `current` closes. After the survey: the new-user gift if received, else the
 * invitation gift if receiveSuccess, else the black card if blackProReceive, else the sign-in reward.
 * The gifts chain new-user → invitation → black card, each only when the server granted it (the
 * dialogs announce what was really given); the black card closes into the sign-in reward.
 */
export function nextStep(current: OnboardingStep, info: OnboardingFlags): OnboardingStep {
  const order: OnboardingStep[] = ["survey", "new_user", "invite", "black_card", "signin", "done"];
  const granted: Record<OnboardingStep, boolean> = {
    survey: false,
    new_user: info.received,
    invite: info.receiveSuccess,
    black_card: info.blackProReceive,
    signin: true,
    done: true,
  };
  for (const step of order.slice(order.indexOf(current) + 1)) if (granted[step]) return step;
  return "done";
}

/** The survey opens on step 2 when the identity is already known. */
export function surveyStartStep(info: Pick<OnboardingFlags, "infoCollectIdentity">): 1 | 2 {
  return info.infoCollectIdentity ? 2 : 1;
}
