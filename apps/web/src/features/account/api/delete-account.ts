import { useQueryClient } from "@tanstack/react-query";
import type { DeleteAccountStatus } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/**
 * Asks for the account's deletion. The answer (status 1, the purge date) becomes the deletion
 * status the account gate reads, so the app gives way to the deletion warning at once (spec §4).
 */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: () => api<DeleteAccountStatus>("/api/v3/user/delete_account", { method: "POST" }),
    onSuccess: (status) => client.setQueryData(queryKeys.deletionStatus, status),
  });
}
