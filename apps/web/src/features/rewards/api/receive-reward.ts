import { useQueryClient } from "@tanstack/react-query";
import type { Reward } from "@yuelu/contracts";
import { refreshAfterReward } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/**
 * Claims a finished task's reward: the rewards granted, or [] when there was none to claim (spec
 * §4: 'no reward to claim'). The list, the balances and the messages refresh either way.
 */
export function useReceiveReward() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (challengeId: number) =>
      api<Reward[]>("/api/v1/challenge/receive_reward", { method: "POST", data: { challengeId }, silent: true }),
    onSettled: () => refreshAfterReward(client),
  });
}
