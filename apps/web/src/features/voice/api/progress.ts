import { type QueryKey, useQuery, useQueryClient } from "@tanstack/react-query";
import { VOICE_POLL_MS } from "@yuelu/contracts/constants";
import { useEffect, useRef } from "react";
import { api } from "@/lib/api-client.ts";
import { isTaskRunning } from "@/lib/task-phase.ts";
import type { VoiceProgressItem } from "./types.ts";

interface ProgressPoll {
  /** the query key of these ids (sorted, each once) */
  keyOf: (ids: readonly number[]) => QueryKey;
  /** the progress call, and the parameter that takes the ids */
  path: string;
  param: "voiceIds" | "workIds";
  ids: readonly number[];
  /** what to fetch again when one ends (its list, today's quota: a failure gives its unit back) */
  refresh: readonly QueryKey[];
}

/**
 * Polls the progress of some voices or works (every VOICE_POLL_MS, slower after a failed call) until
 * none is queued or running; each one that ends has `refresh` fetched again, once.
 */
export function useProgressPoll({ keyOf, path, param, ids: given, refresh }: ProgressPoll) {
  const ids = [...new Set(given)].sort((a, b) => a - b);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: keyOf(ids),
    queryFn: () => api<VoiceProgressItem[]>(path, { params: { [param]: ids.join(",") }, silent: true }),
    enabled: ids.length > 0,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) => {
      if (q.state.status === "error") return VOICE_POLL_MS * 3;
      const items = q.state.data;
      return !items || items.some((i) => isTaskRunning(i.status)) ? VOICE_POLL_MS : false;
    },
  });
  const ended = useRef(new Set<number>());
  const refreshed = useRef(refresh);
  refreshed.current = refresh;
  useEffect(() => {
    let changed = false;
    for (const item of query.data ?? []) {
      if (isTaskRunning(item.status) || ended.current.has(item.id)) continue;
      ended.current.add(item.id);
      changed = true;
    }
    if (!changed) return;
    for (const queryKey of refreshed.current) void client.invalidateQueries({ queryKey });
  }, [query.data, client]);
  return query;
}
