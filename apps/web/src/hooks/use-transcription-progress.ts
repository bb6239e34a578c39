import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DictationProgressItem } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useEffect, useRef } from "react";
import { refreshBalances } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isInProgress, PROGRESS_POLL_MS } from "@/utils/file-status.ts";

export function getProgress(fileIds: readonly number[]) {
  return api<DictationProgressItem[]>("/api/v1/dictation/progress/get_progress", {
    params: { fileIds: fileIds.join(",") },
    silent: true,
  });
}

/**
 * Polls the transcription progress of some files every 2 s until each is complete or failed
 * (spec §4: in-progress items update in place). Disabled while there is nothing to watch. Used by
 * the records list, the upload page and the detail page alike.
 *
 * A failed task was refunded by the server: when one shows up, the header's card time and the
 * quotas are fetched again (once per task).
 */
export function useTranscriptionProgress(fileIds: readonly number[], enabled = true) {
  const sorted = [...new Set(fileIds)].sort((a, b) => a - b);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.records.progress(sorted),
    queryFn: () => getProgress(sorted),
    enabled: enabled && sorted.length > 0,
    staleTime: 0,
    gcTime: 0,
    // While the watched set changes (one finished), the others keep their last progress meanwhile.
    placeholderData: keepPreviousData,
    refetchInterval: (q) => {
      const items = q.state.data;
      if (q.state.status === "error") return PROGRESS_POLL_MS * 2;
      if (!items) return PROGRESS_POLL_MS;
      // Stops once nothing is in queue or transcribing (complete, failed, gone, or never queued).
      return items.some((i) => isInProgress(i.fileStatus)) ? PROGRESS_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });

  const refundsSeen = useRef(new Set<string>());
  useEffect(() => {
    let refunded = false;
    for (const item of query.data ?? []) {
      const task = `${item.fileId}:${item.taskId ?? ""}`;
      if (item.fileStatus !== FileStatus.Failed || refundsSeen.current.has(task)) continue;
      refundsSeen.current.add(task);
      refunded = true;
    }
    if (refunded) refreshBalances(client);
  }, [query.data, client]);

  return query;
}

export function progressById(items: DictationProgressItem[] | undefined): Map<number, DictationProgressItem> {
  return new Map((items ?? []).map((i) => [Number(i.fileId), i]));
}
