import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotesOfRecord, NoteTask } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isNoteRunning, NOTE_POLL_MS, withNote } from "../lib/notes.ts";

/** Under the transcript's key: signing out drops them with the rest of "me". */
export const notesKey = (fileId: number) => [...queryKeys.transcript.text(fileId), "notes"] as const;
export const chaptersKey = (fileId: number) => [...queryKeys.transcript.text(fileId), "chapters"] as const;

/**
 * A note that was queued or running and has now ended changes what else the page shows: chapters (the LLM's
 * replace the offline ones), the summary (written into the transcript's abstracts). Fetched again once.
 */
function afterEnded(client: QueryClient, fileId: number, before: NotesOfRecord | undefined, after: NotesOfRecord) {
  const ended = (before?.notes ?? []).filter(
    (old) => isNoteRunning(old) && !isNoteRunning(after.notes.find((n) => n.taskId === old.taskId) ?? null),
  );
  if (ended.some((n) => n.kind === "chapters")) void client.invalidateQueries({ queryKey: chaptersKey(fileId) });
  if (ended.some((n) => n.kind === "summary"))
    void client.invalidateQueries({ queryKey: queryKeys.transcript.text(fileId), exact: true });
}

/**
 * GET /text/notes?fileId=: whether (and where) a language model is configured, today's AI budget, the newest
 * note of each kind and the offline to-dos. Polled while a note is queued or running, and not after.
 */
export function useNotes(fileId: number, enabled = true) {
  const client = useQueryClient();
  return useQuery({
    queryKey: notesKey(fileId),
    queryFn: async () => {
      const before = client.getQueryData<NotesOfRecord>(notesKey(fileId));
      const after = await api<NotesOfRecord>("/text/notes", { params: { fileId }, silent: true });
      afterEnded(client, fileId, before, after);
      return after;
    },
    enabled,
    refetchInterval: (q) => (q.state.data?.notes.some(isNoteRunning) ? NOTE_POLL_MS : false),
  });
}

/** Puts a task the server just answered (created, cancelled) into the record's notes: it shows, and is polled. */
export function putNote(client: QueryClient, fileId: number, task: NoteTask) {
  client.setQueryData<NotesOfRecord>(notesKey(fileId), (old) =>
    old ? { ...old, notes: withNote(old.notes, task) } : old,
  );
}
