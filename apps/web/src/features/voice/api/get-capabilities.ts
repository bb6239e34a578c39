import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { voicePaths } from "./paths.ts";
import type { VoiceCapabilities } from "./types.ts";

/** What this install can do: "voice matching" or a clone engine, and whether a worker makes works now. */
export function useVoiceCapabilities() {
  return useQuery({
    queryKey: queryKeys.voiceCapabilities,
    queryFn: () => api<VoiceCapabilities>(voicePaths.capabilities, { silent: true }),
    staleTime: 60_000,
  });
}
