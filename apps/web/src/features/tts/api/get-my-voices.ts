import { useQuery } from "@tanstack/react-query";
import type { MyVoice } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { ttsPaths } from "./paths.ts";

/** All my voices (training, ready and failed), as the voice pages list them; only once signed in. */
export function useMyVoices() {
  return useQuery({
    queryKey: queryKeys.voice.myVoices,
    queryFn: () => api<{ total: number; list: MyVoice[] }>(ttsPaths.myVoices, { silent: true }),
    enabled: useAccountReady(),
    staleTime: 30_000,
  });
}

/** My voices that are ready to speak (start_tts takes one as myVoiceId); none where the call fails. */
export function useReadyMyVoices() {
  const query = useMyVoices();
  return (query.data?.list ?? []).filter((v) => v.status === FileStatus.Complete);
}
