import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { TtsProgressItem } from "@yuelu/contracts";
import { TTS_POLL_MS } from "@yuelu/contracts/constants";
import { useEffect, useRef } from "react";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isTaskRunning } from "@/lib/task-phase.ts";
import { ttsPaths } from "./paths.ts";

export function getTtsProgress(taskIds: readonly number[]) {
  return api<TtsProgressItem[]>(ttsPaths.progress, { params: { taskIds: taskIds.join(",") }, silent: true });
}

/**
 * Polls the progress of some tasks (every TTS_POLL_MS) until none is queued or running. When one
 * ends — done, or failed and refunded — 'my works' and today's characters are fetched again.
 */
export function useTtsProgress(taskIds: readonly number[]) {
  const ids = [...new Set(taskIds)].sort((a, b) => a - b);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.tts.progress(ids),
    queryFn: () => getTtsProgress(ids),
    enabled: ids.length > 0,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) => {
      if (q.state.status === "error") return TTS_POLL_MS * 3;
      const items = q.state.data;
      return !items || items.some((i) => isTaskRunning(i.status)) ? TTS_POLL_MS : false;
    },
  });

  const ended = useRef(new Set<number>());
  useEffect(() => {
    let changed = false;
    for (const item of query.data ?? []) {
      if (isTaskRunning(item.status) || ended.current.has(item.taskId)) continue;
      ended.current.add(item.taskId);
      changed = true;
    }
    if (changed) void client.invalidateQueries({ queryKey: [...queryKeys.tts.all, "works"] });
    if (changed) void client.invalidateQueries({ queryKey: queryKeys.tts.quota });
  }, [query.data, client]);

  return query;
}
