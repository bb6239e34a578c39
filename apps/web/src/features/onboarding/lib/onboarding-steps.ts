import type { WelcomeGiftKind } from "@yuelu/contracts";

/**
 * The onboarding dialogs, in the order spec §4 shows them, made one surface (issue 43): the survey
 * (its two steps in one dialog), then every welcome gift granted in one card, which also carries the
 * check-in offer — two dialogs at most before the user can act. A user with nothing to announce gets
 * the check-in invitation instead (`signin`), under its own once-a-day rules.
 */
export type OnboardingStep = "survey" | "gifts" | "signin" | "done";

export interface OnboardingFlags {
  infoCollectIdentity: string;
  infoCollectChannel: string;
  received: boolean;
  receiveSuccess: boolean;
  blackProReceive: boolean;
}

/**
 * The gifts to announce, in spec §4's chain order: the 3-hour new-user card (received), the 5-hour
 * invitation card (receiveSuccess), the 30-day membership (blackProReceive) — each only when the
 * server granted it and it was not announced yet.
 */
export function grantedGifts(info: OnboardingFlags): WelcomeGiftKind[] {
  const gifts: WelcomeGiftKind[] = [];
  if (info.received) gifts.push("new_user");
  if (info.receiveSuccess) gifts.push("invite");
  if (info.blackProReceive) gifts.push("black_card");
  return gifts;
}

/** Where onboarding starts: the survey while identity or channel is missing, else the gifts. */
export function firstStep(info: OnboardingFlags): OnboardingStep {
  if (!info.infoCollectIdentity || !info.infoCollectChannel) return "survey";
  return nextStep("survey", info);
}

/**
 * The step after `current` closes. After the survey: the gifts card when a gift is to be announced,
 * else the check-in invitation. After the gifts card nothing: it offered the check-in itself.
 */
export function nextStep(current: OnboardingStep, info: OnboardingFlags): OnboardingStep {
  switch (current) {
    case "survey":
      return grantedGifts(info).length > 0 ? "gifts" : "signin";
    default:
      return "done";
  }
}

/** The survey opens on step 2 when the identity is already known. */
export function surveyStartStep(info: Pick<OnboardingFlags, "infoCollectIdentity">): 1 | 2 {
  return info.infoCollectIdentity ? 2 : 1;
}
