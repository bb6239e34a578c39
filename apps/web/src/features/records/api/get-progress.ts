import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { isInProgress, PROGRESS_POLL_MS } from "../lib/status.ts";
import { recordKeys } from "./keys.ts";
import type { ProgressItem } from "./types.ts";

export function getProgress(fileIds: readonly number[]) {
  return api<ProgressItem[]>("/api/v1/dictation/progress/get_progress", {
    params: { fileIds: fileIds.join(",") },
    silent: true,
  });
}

/**
 * Polls the transcription progress of some files every 2 s until each is complete or failed
 * (spec §4: in-progress items update in place). Disabled while there is nothing to watch.
 */
export function useProgress(fileIds: readonly number[], enabled = true) {
  const sorted = [...new Set(fileIds)].sort((a, b) => a - b);
  return useQuery({
    queryKey: recordKeys.progress(sorted),
    queryFn: () => getProgress(sorted),
    enabled: enabled && sorted.length > 0,
    staleTime: 0,
    gcTime: 0,
    // While the watched set changes (one finished), the others keep their last progress meanwhile.
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const items = query.state.data;
      if (query.state.status === "error") return PROGRESS_POLL_MS * 2;
      if (!items) return PROGRESS_POLL_MS;
      // Stops once nothing is in queue or transcribing (complete, failed, gone, or never queued).
      return items.some((i) => isInProgress(i.fileStatus)) ? PROGRESS_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });
}

export function progressById(items: ProgressItem[] | undefined): Map<number, ProgressItem> {
  return new Map((items ?? []).map((i) => [Number(i.fileId), i]));
}
