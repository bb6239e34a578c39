import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SignResult } from "@yuelu/contracts";
import { refreshBalances } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Signs today; the reward changes the calendar, the balances and (members) the user info. */
export function useSign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<SignResult>("/api/v1/store/sign", { method: "POST", silent: true }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.checkin });
      void client.invalidateQueries({ queryKey: queryKeys.userInfo });
      refreshBalances(client);
    },
  });
}
