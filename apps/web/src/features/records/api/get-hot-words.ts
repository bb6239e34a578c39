import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export function useHotWords({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    enabled,
    queryKey: queryKeys.hotWords,
    queryFn: async () => (await api<{ hotWords: string[] }>("/api/v1/hotWords")).hotWords ?? [],
  });
}
