import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api-client.ts";
import { meKeys } from "../account/api.ts";

export interface SignRewardDay {
  day: number;
  signRewardNumber: number;
  signRewardType: number;
  rewardPicPath: string;
}

export interface CheckInInfo {
  allSignDay: number;
  nowMonth: number;
  todaySign: boolean;
  rewardContentList: SignRewardDay[];
}

export interface SignResult {
  signCheck: number;
  signRewardNumber: number;
  signRewardType: number;
  memberTimes: number;
}

export const checkinKey = [...meKeys.all, "checkin"] as const;

// Spec §8: failures of reward calls are only logged.
export const checkinQuery = queryOptions({
  queryKey: checkinKey,
  queryFn: () => api<CheckInInfo>("/api/v1/store/sign_info", { method: "POST", silent: true }),
});

export function useSign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<SignResult>("/api/v1/store/sign", { method: "POST", silent: true }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: checkinKey });
      void client.invalidateQueries({ queryKey: meKeys.assets });
      void client.invalidateQueries({ queryKey: meKeys.storage });
      void client.invalidateQueries({ queryKey: meKeys.info });
    },
  });
}

/** Spec §4 day status: 0 signed, 1 signable today, 2 not yet. */
export function dayStatus(index: number, info: Pick<CheckInInfo, "allSignDay" | "todaySign">): 0 | 1 | 2 {
  if (index < info.allSignDay) return 0;
  if (index === info.allSignDay && !info.todaySign) return 1;
  return 2;
}

/** Spec §4 button text key: signed when done, member double for members, else sign in. */
export function signButtonKey(todaySign: boolean, isMember: boolean): string {
  if (todaySign) return "checkin.signed";
  return isMember ? "checkin.memberDouble" : "checkin.signIn";
}
