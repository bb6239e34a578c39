import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** The answers are option `value`s (or SURVEY_SKIP), never the displayed names. */
export function useSaveSurvey() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (answers: { identity?: string; channel?: string }) =>
      api("/api/v1/update_info_collect", { data: answers }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.userInfo }),
  });
}
