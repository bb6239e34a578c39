import type { SatisfactionInput } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** POST /api/v1/satisfaction/add (docs/satisfaction.md): stores one rating; the page shows its own error. */
export function useAddSatisfaction() {
  return useSubmitMutation({
    mutationFn: (rating: SatisfactionInput) =>
      api<{ id: number; createTime: number }>("/api/v1/satisfaction/add", { data: rating, silent: true }),
  });
}
