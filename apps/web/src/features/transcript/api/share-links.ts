import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { ShareCreateBody, ShareExpireDays, ShareLink, ShareList } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Under the transcript's keys: signing out or switching accounts clears them with the rest of "me". */
export const shareLinksKey = (fileId: number) => [...queryKeys.transcript.all, "share-links", fileId] as const;

/** The record's links that are not revoked (expired ones marked), newest first. */
export function useShareLinks(fileId: number, enabled: boolean) {
  return useQuery({
    queryKey: shareLinksKey(fileId),
    queryFn: () => api<ShareList>("/api/v1/share/list", { params: { fileId }, silent: true }),
    enabled,
    // each opening of the dialog shows fresh view counts
    staleTime: 0,
  });
}

export interface NewShare {
  expireDays: ShareExpireDays;
  password: string;
  withAudio: boolean;
}

/** Creates a link (one at a time: a double click makes one); the list refreshes. */
export function useCreateShareLink(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (share: NewShare) => {
      const data: Omit<ShareCreateBody, "password"> & { password?: string } = {
        fileId,
        expireDays: share.expireDays,
        withAudio: share.withAudio,
        ...(share.password ? { password: share.password } : {}),
      };
      return api<ShareLink>("/api/v1/share/create", { method: "POST", data });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: shareLinksKey(fileId) }),
  });
}

export function useRevokeShareLink(fileId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (id: number) => api<{ id: number }>("/api/v1/share/revoke", { method: "POST", data: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: shareLinksKey(fileId) }),
  });
}
