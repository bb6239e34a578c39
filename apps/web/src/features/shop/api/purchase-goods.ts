import { useQueryClient } from "@tanstack/react-query";
import type { PurchaseResult } from "@yuelu/contracts";
import { refreshAfterReward } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { currentSession } from "@/lib/session.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export interface PurchaseInput {
  goodsId: number;
  /** how many units */
  exchangeAmount: number;
  /** the total the user saw: unit cost × amount (the server refuses a price that changed since) */
  coinNumber: number;
}

/** Spec §7 purchase_goods: exchanges beans for time cards (valid 3 months). */
export function usePurchaseGoods() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (input: PurchaseInput) => {
      const userId = Number(currentSession().userId);
      return api<PurchaseResult>("/api/v1/store/purchase_goods", {
        method: "POST",
        data: { ...input, ...(Number.isInteger(userId) && userId > 0 ? { userId } : {}) },
        silent: true,
      });
    },
    onSuccess: () => refreshAfterReward(client),
  });
}
