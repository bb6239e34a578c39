import { useQueryClient } from "@tanstack/react-query";
import type { TranscriptAbstractsResult } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { newRequestId } from "../lib/notes.ts";
import { notesKey, putNote } from "./get-notes.ts";
import type { Transcript } from "./get-text.ts";

/**
 * With `abstracts` stores the summary; without, the server makes one from the transcript: at once (extractive)
 * or, with a language model configured, as a summary task (`task`, polled with the record's notes) whose result
 * replaces the abstracts when it is done. One call at a time: a double click makes one summary.
 */
export function useUpdateAbstracts(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (abstracts?: string) =>
      api<TranscriptAbstractsResult>("/text/update_abstracts", {
        data: abstracts === undefined ? { fileId, requestId: newRequestId() } : { fileId, abstracts },
      }),
    onSuccess: (data) => {
      client.setQueryData<Transcript>(queryKeys.transcript.text(fileId), (old) =>
        old ? { ...old, abstracts: data.abstracts } : old,
      );
      if (data.task) putNote(client, fileId, data.task);
    },
    // 50008 (today's budget used up) is toasted; the budget shown beside the button is fetched again
    onError: () => client.invalidateQueries({ queryKey: notesKey(fileId) }),
  });
}
