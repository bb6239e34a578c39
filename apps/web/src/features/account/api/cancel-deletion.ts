import type { DeleteAccountStatus } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Abandons a pending deletion (allowed while the account is being deleted). */
export function useCancelDeletion() {
  return useSubmitMutation({
    mutationFn: () => api<DeleteAccountStatus>("/api/v3/user/cancel_delete_account", { method: "POST" }),
  });
}
