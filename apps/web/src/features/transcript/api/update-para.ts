import type { QueryClient } from "@tanstack/react-query";
import type { UpdateParaResult } from "@yuelu/contracts";
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
  /** the transcript's version the edit was made on (30002 when it changed meanwhile) */
  version?: number;
}

/**
 * POST /text/update_para: one segment's text and/or its speaker (renameAll: every segment of that speaker).
 * Quiet: the page's save state says how it went (lib/autosave.ts). `keepalive`: sent as the page closes.
 */
export function sendParaEdit(fileId: number, edit: ParaEdit, options: { keepalive?: boolean } = {}) {
  return api<UpdateParaResult>("/text/update_para", {
    data: { fileId, ...edit },
    silent: true,
    ...(options.keepalive ? { keepalive: true } : {}),
  });
}

/** The page's copy of the transcript after a saved edit, at the version the server answered. */
export function applyParaEdit(client: QueryClient, fileId: number, edit: ParaEdit, version: number | undefined) {
  client.setQueryData<Transcript>(queryKeys.transcript.text(fileId), (old) => {
    if (!old) return old;
    let segments = old.segments;
    if (edit.text !== undefined) segments = segments.map((s, i) => (i === edit.index ? { ...s, text: edit.text! } : s));
    if (edit.spkName !== undefined)
      segments = renameSpeaker(segments, edit.index, edit.spkName, Boolean(edit.renameAll));
    return version === undefined
      ? { ...old, segments }
      : { ...old, segments, version: Math.max(version, old.version ?? 0) };
  });
  // notes made before this edit are now stale: the server says so in the record's notes
  void client.invalidateQueries({ queryKey: notesKey(fileId) });
}
