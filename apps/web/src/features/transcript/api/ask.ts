import { useQuery } from "@tanstack/react-query";
import type { AskResult, LlmStatus, NoteTask } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { isNoteRunning, NOTE_POLL_MS, newRequestId } from "../lib/notes.ts";

/**
 * POST /text/ask: a question about one record (fileId) or all of mine. Answers at once with the passages that
 * match best; with a language model configured also with the answer's task, to be polled (useNoteTask).
 */
export function useAsk(fileId?: number) {
  return useSubmitMutation({
    mutationFn: (question: string) =>
      api<AskResult>("/text/ask", {
        data: { question, ...(fileId ? { fileId } : {}), requestId: newRequestId() },
        silent: true,
      }),
  });
}

/** GET /text/notes/task?taskId=: one task, polled while it is queued or running; `initial` shows meanwhile. */
export function useNoteTask(initial: NoteTask | null) {
  const taskId = initial?.taskId ?? 0;
  return useQuery({
    queryKey: [...queryKeys.transcript.all, "note-task", taskId],
    queryFn: () => api<NoteTask>("/text/notes/task", { params: { taskId }, silent: true }),
    enabled: initial !== null,
    initialData: initial ?? undefined,
    // the answer the ask came with is already news: the first poll waits its turn
    initialDataUpdatedAt: Date.now,
    staleTime: NOTE_POLL_MS,
    refetchInterval: (q) => (isNoteRunning(q.state.data) ? NOTE_POLL_MS : false),
  });
}

/** GET /text/notes/engine: whether (and where) a model is configured, for pages without a record (/search). */
export function useLlmEngine(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.transcript.all, "llm-engine"],
    queryFn: () => api<LlmStatus>("/text/notes/engine", { silent: true }),
    enabled,
  });
}
