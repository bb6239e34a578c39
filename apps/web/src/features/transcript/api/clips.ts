import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Clip, ClipList, ShareLink, TextDetail } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { parseSegments } from "../lib/segments.ts";

/** A record's clips (docs/clips.md), under the transcript's keys. */
export const clipsKey = (fileId: number) => [...queryKeys.transcript.all, "clips", fileId] as const;

export function useClips(fileId: number, enabled: boolean) {
  return useQuery({
    queryKey: clipsKey(fileId),
    queryFn: () => api<ClipList>("/api/v1/clips/list", { params: { fileId }, silent: true }),
    enabled,
  });
}

/** The segments with their word times (get_text leaves them out unless asked): where a selection's words begin and end. */
export async function timedSegments(fileId: number) {
  const { asrResult } = await api<TextDetail>("/api/v2/audio/text/get_text", {
    params: { fileId, withWords: 1 },
    silent: true,
  });
  return parseSegments(asrResult);
}

export function useCreateClip(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (range: { startTime: number; endTime: number }) =>
      api<Clip>("/api/v1/clips/create", { method: "POST", data: { fileId, ...range } }),
    onSuccess: () => client.invalidateQueries({ queryKey: clipsKey(fileId) }),
  });
}

export function useDeleteClip(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (clipId: number) =>
      api<{ clipId: number }>("/api/v1/clips/delete", { method: "POST", data: { clipId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: clipsKey(fileId) }),
  });
}

/** The clip's own public link, with the share page's rules (here: 7 days, no password; revoked in the share dialog). */
export function useShareClip(fileId: number) {
  return useSubmitMutation({
    mutationFn: (clipId: number) =>
      api<ShareLink>("/api/v1/share/create", { method: "POST", data: { fileId, clipId, expireDays: 7 } }),
  });
}
