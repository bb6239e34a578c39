import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useSyncExternalStore } from "react";
import { queryKeys } from "@/lib/query-keys.ts";
import { readStorage, removeStorage, StorageKey, writeStorage } from "@/lib/storage.ts";
import { getText, type Transcript } from "../api/get-text.ts";
import { applyParaEdit, sendParaEdit } from "../api/update-para.ts";
import { browserDraftStore, DraftSaver } from "../lib/autosave.ts";

/**
 * The page's DraftSaver (lib/autosave.ts) for one transcript: fed the transcript as the query has it, its
 * state read by React, and the browser's moments kept — the page hidden or closing sends what waits (a
 * request that outlives the page), closing with unsaved edits asks first, and back online sends at once.
 */
export function useDraftSaver(transcript: Transcript) {
  const client = useQueryClient();
  const { fileId } = transcript;
  const saver = useMemo(
    () =>
      new DraftSaver({
        send: (edit, { keepalive }) => sendParaEdit(fileId, edit, { keepalive }),
        reread: () => getText(fileId),
        onSaved: (edit, version) => applyParaEdit(client, fileId, edit, version),
        onReread: (latest) =>
          client.setQueryData<Transcript>(queryKeys.transcript.text(fileId), (old) =>
            old ? { ...old, ...latest } : old,
          ),
        store: browserDraftStore(fileId, {
          read: () => readStorage(StorageKey.transcriptDrafts),
          write: (value) => writeStorage(StorageKey.transcriptDrafts, value),
          remove: () => removeStorage(StorageKey.transcriptDrafts),
        }),
      }),
    [client, fileId],
  );

  useEffect(() => saver.sync(transcript.version, transcript.segments), [saver, transcript]);

  useEffect(() => {
    saver.start();
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!saver.dirty) return;
      void saver.flush({ keepalive: true });
      // the browser asks whether to leave: what is typed may not have reached the server yet
      e.preventDefault();
      e.returnValue = "";
    };
    const hidden = () => {
      if (document.visibilityState === "hidden" && saver.dirty) void saver.flush({ keepalive: true });
    };
    const pageHide = () => {
      if (saver.dirty) void saver.flush({ keepalive: true });
    };
    const online = () => saver.online();
    window.addEventListener("beforeunload", beforeUnload);
    window.addEventListener("pagehide", pageHide);
    window.addEventListener("online", online);
    document.addEventListener("visibilitychange", hidden);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      window.removeEventListener("pagehide", pageHide);
      window.removeEventListener("online", online);
      document.removeEventListener("visibilitychange", hidden);
      // leaving the page (another record, another page): what waits is sent now; the browser keeps it too
      if (saver.dirty) void saver.flush({ keepalive: true });
    };
  }, [saver]);

  const snapshot = useSyncExternalStore(saver.subscribe, saver.getSnapshot);
  return { saver, snapshot };
}
