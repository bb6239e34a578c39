import { useQueryClient } from "@tanstack/react-query";
import type { GiftRedeemResult } from "@yuelu/contracts";
import { refreshAfterReward } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Redeems a gift code (8 letters or digits, any case): beans, a time card, or membership days. */
export function useRedeemGiftCode() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (packCode: string) =>
      api<GiftRedeemResult>("/api/v1/gift_pack/gift_code_exchange", {
        method: "POST",
        data: { packCode },
        silent: true,
      }),
    onSuccess: () => refreshAfterReward(client),
  });
}
