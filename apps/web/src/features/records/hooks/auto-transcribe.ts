import type { QueryClient } from "@tanstack/react-query";
import type { UserInfo } from "@yuelu/contracts";
import { toast } from "sonner";
import { i18n } from "@/lib/i18n.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { acceptedFiles, afterDictation, afterDictationError, startDictation } from "../api/start-dictation.ts";
import { tooLongToTranscribe } from "../lib/upload-rules.ts";
import { knownDuration, type UploadItem, uploads } from "./upload-store.ts";

/**
 * "Stop and transcribe" (issue 43): the uploads whose transcription was asked for before they were done are
 * sent for transcription as soon as they are — with the settings chosen when the user stopped, one call per
 * set of settings — and then followed like any other (markSubmitted). Runs outside React (the upload store's
 * onUploaded), so it happens even when the user has gone to another page meanwhile. A file the server found
 * longer than a transcription may be is not sent (its item says why); a refused one (no card time, today's
 * cap…) is toasted with its reason and offered again under the transcription options.
 */
export async function transcribeDue(client: QueryClient): Promise<void> {
  const due = uploads.takeDueTranscriptions();
  const tooLong = due.filter((i) => tooLongToTranscribe(knownDuration(i)));
  if (tooLong.length > 0) uploads.transcriptionAnswered(tooLong.map((i) => i.id));
  const groups = new Map<string, UploadItem[]>();
  for (const item of due) {
    if (tooLong.includes(item)) continue;
    const key = JSON.stringify([item.autoTranscribe?.options, item.autoTranscribe?.hotWords]);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  for (const group of groups.values()) {
    const { options, hotWords } = group[0]!.autoTranscribe!;
    try {
      const { tasks } = await startDictation(
        group.map((i) => i.record!.fileId),
        options,
        hotWords,
      );
      afterDictation(client, tasks);
      const accepted = acceptedFiles(tasks, { isMember: client.getQueryData<UserInfo>(queryKeys.userInfo)?.isMember });
      uploads.markSubmitted(accepted);
      if (accepted.length > 0) toast.success(i18n.t("transcribe.started"));
    } catch (error) {
      // the API client has said why
      afterDictationError(client, error);
    } finally {
      uploads.transcriptionAnswered(group.map((i) => i.id));
    }
  }
}
