import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { api, codeMessage, SUCCESS } from "../../../lib/api-client.ts";
import { meKeys } from "../../account/api.ts";
import { recordKeys } from "./keys.ts";
import type { DictationOptions } from "./types.ts";

/** One file's outcome: code 1 queued (or already queued: its current task), else why it was refused. */
export interface DictationTask {
  fileId: number;
  taskId: number | null;
  fileStatus: number;
  code?: number;
  message?: string;
}

/**
 * The files that were queued; each refused file (50001 too long, 50002 daily cap, 20001 card time,
 * 30001 gone) is toasted with its reason, as the API client toasts a refused call.
 */
export function acceptedFiles(tasks: DictationTask[]): number[] {
  const accepted: number[] = [];
  for (const task of tasks) {
    if (task.code === undefined || task.code === SUCCESS) accepted.push(task.fileId);
    else toast.error(task.message || codeMessage(task.code), { id: `dictation-${task.fileId}-${task.code}` });
  }
  return accepted;
}

/** Spec §7: dictationParam is JSON with source 0 and answerVersion 3. */
export function dictationParam(options: DictationOptions, hotWords: string[] = []): string {
  return JSON.stringify({
    source: 0,
    answerVersion: 3,
    language: options.language,
    speakerCount: options.speakerCount,
    ...(hotWords.length > 0 ? { hotWords } : {}),
  });
}

export function startDictation(fileIds: number[], options: DictationOptions, hotWords: string[] = []) {
  return api<{ tasks: DictationTask[] }>("/api/v2/dictation/audio/dictation_batch", {
    data: { fileIds: fileIds.join(","), dictationParam: dictationParam(options, hotWords) },
  });
}

export function useStartDictation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { fileIds: number[]; options: DictationOptions; hotWords?: string[] }) =>
      startDictation(v.fileIds, v.options, v.hotWords),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: recordKeys.all });
      void client.invalidateQueries({ queryKey: meKeys.storage });
    },
  });
}
