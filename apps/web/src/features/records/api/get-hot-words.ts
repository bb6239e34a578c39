import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export function useHotWords() {
  return useQuery({
    queryKey: queryKeys.hotWords,
    queryFn: async () => (await api<{ hotWords: string[] }>("/api/v1/hotWords")).hotWords ?? [],
  });
}
