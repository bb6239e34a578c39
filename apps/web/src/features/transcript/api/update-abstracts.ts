import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import type { Transcript } from "./get-text.ts";

/** With `abstracts` stores the summary; without, the server generates one from the transcript. */
export function useUpdateAbstracts(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (abstracts?: string) =>
      api<{ abstracts: string }>("/text/update_abstracts", {
        data: abstracts === undefined ? { fileId } : { fileId, abstracts },
      }),
    onSuccess: (data) =>
      client.setQueryData<Transcript>(queryKeys.transcript.text(fileId), (old) =>
        old ? { ...old, abstracts: data.abstracts } : old,
      ),
  });
}
