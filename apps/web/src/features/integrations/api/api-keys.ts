import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyCreated, ApiKeyList } from "@yuelu/contracts";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** The user's live API keys (never the keys themselves: their first characters). */
export function useApiKeys() {
  return useQuery({
    queryKey: queryKeys.integrations.apiKeys,
    queryFn: () => api<ApiKeyList>("/api/v1/api_keys/list", { silent: true }),
    enabled: useAccountReady(),
  });
}

/** Creates a key; the answer holds the key itself, which nothing can show again. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (name: string) => api<ApiKeyCreated>("/api/v1/api_keys/create", { method: "POST", data: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.integrations.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (id: number) => api<{ id: number }>("/api/v1/api_keys/revoke", { method: "POST", data: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.integrations.apiKeys }),
  });
}
