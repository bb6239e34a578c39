import { useQuery } from "@tanstack/react-query";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { voicePaths } from "./paths.ts";
import type { VoiceQuota } from "./types.ts";

/** Today's voice works (sung songs, converted songs, trained voices): made and allowed. */
export function useVoiceQuota() {
  return useQuery({
    queryKey: queryKeys.voice.quota,
    queryFn: () => api<VoiceQuota>(voicePaths.quota, { silent: true }),
    enabled: useAccountReady(),
  });
}
