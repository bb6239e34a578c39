import { useQuery } from "@tanstack/react-query";
import type { TtsQuota } from "@yuelu/contracts";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { ttsPaths } from "./paths.ts";

/** Today's text-to-speech characters: used and allowed (members more). */
export function useTtsQuota() {
  return useQuery({
    queryKey: queryKeys.tts.quota,
    queryFn: () => api<TtsQuota>(ttsPaths.quota, { params: { source: 0 }, silent: true }),
    enabled: useAccountReady(),
  });
}
