import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";
import type { DictationConfig } from "./types.ts";

/** Which languages have an installed engine (ARCHITECTURE §7), the speaker maximum, the length limit. */
export function useDictationConfig() {
  return useQuery({
    queryKey: recordKeys.dictationConfig,
    queryFn: () => api<DictationConfig>("/api/v1/dictation/configuration"),
    staleTime: 5 * 60_000,
  });
}
