import { useQuery } from "@tanstack/react-query";
import type { Chapters } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** The transcript's chapters (docs/notes.md); under the transcript's key, so an edit refreshes them too. */
export function useChapters(fileId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.transcript.text(fileId), "chapters"],
    queryFn: () => api<Chapters>("/text/chapters", { params: { fileId }, silent: true }),
    enabled,
  });
}
