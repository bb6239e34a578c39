import { useQueryClient } from "@tanstack/react-query";
import type { NoteTask } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { newRequestId } from "../lib/notes.ts";
import { notesKey, putNote } from "./get-notes.ts";

export type NewNote = { kind: "chapters" | "summary" } | { kind: "translation"; target: "zh" | "en" };

/**
 * POST /text/notes: starts a note with the language model. One press, one task: a double click is dropped
 * (useSubmitMutation) and each press carries its own requestId, so a retried request answers the same task.
 * Silent: 70002 and 50008 are shown beside the button that asked, not as a toast.
 */
export function useCreateNote(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (note: NewNote) =>
      api<NoteTask>("/text/notes", { data: { ...note, fileId, requestId: newRequestId() }, silent: true }),
    onSuccess: (task) => putNote(client, fileId, task),
    // a refused note may have been refused for today's budget: show the budget as it is now
    onError: () => client.invalidateQueries({ queryKey: notesKey(fileId) }),
  });
}

/** POST /text/notes/cancel: stops a queued or running note (it ends failed, errorReason "cancelled"). */
export function useCancelNote(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (taskId: number) => api<NoteTask>("/text/notes/cancel", { data: { taskId } }),
    onSuccess: (task) => {
      if (task.fileId === fileId) putNote(client, fileId, task);
    },
  });
}
