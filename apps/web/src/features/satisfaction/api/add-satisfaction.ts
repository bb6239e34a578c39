import { useMutation } from "@tanstack/react-query";
import type { SatisfactionInput } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";

/** POST /api/v1/satisfaction/add (docs/satisfaction.md): stores one rating; the page shows its own error. */
export function useAddSatisfaction() {
  return useMutation({
    mutationFn: (rating: SatisfactionInput) =>
      api<{ id: number; createTime: number }>("/api/v1/satisfaction/add", { data: rating, silent: true }),
  });
}
