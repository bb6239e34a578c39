import { useQuery } from "@tanstack/react-query";
import type { Chapters } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { chaptersKey } from "./get-notes.ts";

/** The transcript's chapters (docs/notes.md); under the transcript's key, so an edit refreshes them too. */
export function useChapters(fileId: number, enabled: boolean) {
  return useQuery({
    queryKey: chaptersKey(fileId),
    queryFn: () => api<Chapters>("/text/chapters", { params: { fileId }, silent: true }),
    enabled,
  });
}
