import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { renameSpeaker } from "../lib/segments.ts";
import { notesKey } from "./get-notes.ts";
import type { Transcript } from "./get-text.ts";

export interface ParaEdit {
  index: number;
  text?: string;
  spkName?: string;
  renameAll?: boolean;
}

/** POST /text/update_para: one segment's text and/or its speaker (renameAll: every segment of that speaker). */
export function useUpdatePara(fileId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: ParaEdit) => api<unknown>("/text/update_para", { data: { fileId, ...edit } }),
    onSuccess: (_data, edit) => {
      client.setQueryData<Transcript>(queryKeys.transcript.text(fileId), (old) => {
        if (!old) return old;
        let segments = old.segments;
        if (edit.text !== undefined)
          segments = segments.map((s, i) => (i === edit.index ? { ...s, text: edit.text! } : s));
        if (edit.spkName !== undefined)
          segments = renameSpeaker(segments, edit.index, edit.spkName, Boolean(edit.renameAll));
        return { ...old, segments };
      });
      // notes made before this edit are now stale: the server says so in the record's notes
      void client.invalidateQueries({ queryKey: notesKey(fileId) });
    },
  });
}
