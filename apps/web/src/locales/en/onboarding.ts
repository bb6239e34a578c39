import type { onboarding as zh } from "../zh/onboarding.ts";

export const onboarding: typeof zh = {
  survey: {
    title: "Welcome to Yuelu",
    step1: "Who are you?",
    step2: "Where did you hear about Yuelu?",
    stepOf: "Step {{step}} of 2",
  },
  gifts: {
    title: "Your welcome gifts",
    newUserTitle: "Welcome gift",
    newUserText: "You got a 3-hour transcription card; it is in your account",
    inviteTitle: "Invitation gift",
    inviteText: "You got a 5-hour transcription card, thanks to your friend's invitation",
    blackCardTitle: "30 days of membership",
    blackCardText: "Your 30-day Black Card membership is active: double check-in rewards",
    happyToAccept: "Happy to accept",
  },
};
