import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PeopleList } from "@yuelu/contracts";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** The people whose voices the account knows, and whether voices are remembered (docs/people.md). */
export function usePeople() {
  return useQuery({
    queryKey: queryKeys.people,
    queryFn: () => api<PeopleList>("/api/v1/people/list", { silent: true }),
    enabled: useAccountReady(),
  });
}

/** After a change of people the transcripts that name them changed too. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.people }),
      client.invalidateQueries({ queryKey: queryKeys.transcript.all }),
    ]);
}

/** Forgets a person: their voiceprint is deleted at once. */
export function useForgetPerson() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (personId: number) => api("/api/v1/people/delete", { method: "POST", data: { personId } }),
    onSuccess: refresh,
  });
}

/** A person's new name (another person's name merges the two). */
export function useRenamePerson() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: ({ personId, name }: { personId: number; name: string }) =>
      api("/api/v1/people/rename", { method: "POST", data: { personId, name } }),
    onSuccess: refresh,
  });
}

/** Remembering voices on or off (off forgets everyone at once). */
export function useRememberVoices() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (remember: boolean) => api("/api/v1/people/settings", { method: "POST", data: { remember } }),
    onSuccess: refresh,
  });
}
