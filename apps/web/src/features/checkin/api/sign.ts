import { useQueryClient } from "@tanstack/react-query";
import type { SignResult } from "@yuelu/contracts";
import { refreshAfterReward } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Signs today; the reward changes the calendar, the balances, the ledger and the check-in tasks' progress. */
export function useSign() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: () => api<SignResult>("/api/v1/store/sign", { method: "POST", silent: true }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.checkin });
      refreshAfterReward(client);
    },
  });
}
