import type { checkin as zh } from "../zh/checkin.ts";

export const checkin: typeof zh = {
  checkin: {
    title: "Daily check-in",
    signed: "Signed",
    memberDouble: "Member double",
    signIn: "Sign in",
    alreadySigned: "Already signed today",
    failed: "Sign-in failed, try again later",
    dayN: "Day {{day}}",
    beansN_one: "{{count}} bean",
    beansN_other: "{{count}} beans",
    beansWord_one: "bean",
    beansWord_other: "beans",
    rewardTitle: "Signed in",
    monthProgress_one: "{{count}} day signed this month",
    monthProgress_other: "{{count}} days signed this month",
    offerText: "Check in daily for beans and transcription time",
    offerGo: "Check in",
  },
};
