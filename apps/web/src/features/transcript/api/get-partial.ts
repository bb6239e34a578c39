import { useQuery } from "@tanstack/react-query";
import type { DictationPartial } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isInProgress } from "@/utils/file-status.ts";

/** How often /detail asks for the text recognised so far while the record transcribes (ms). */
export const PARTIAL_POLL_MS = 3000;

/** Under the transcript's keys: signing out or switching accounts clears it with the rest of "me". */
export const partialKey = (fileId: number) => [...queryKeys.transcript.all, "partial", fileId] as const;

/**
 * The text recognised so far (docs/records-api.md, `GET /api/v1/dictation/partial`), polled while
 * `enabled` (the record is transcribing) and until the server says the task is over; then the page
 * shows the finished transcript instead.
 */
export function usePartialTranscript(fileId: number, enabled: boolean) {
  return useQuery({
    queryKey: partialKey(fileId),
    queryFn: () => api<DictationPartial>("/api/v1/dictation/partial", { params: { fileId }, silent: true }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) => {
      if (q.state.status === "error") return PARTIAL_POLL_MS * 2;
      const data = q.state.data;
      return !data || isInProgress(data.fileStatus) ? PARTIAL_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });
}
