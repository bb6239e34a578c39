import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";

export function useHotWords() {
  return useQuery({
    queryKey: recordKeys.hotWords,
    queryFn: async () => (await api<{ hotWords: string[] }>("/api/v1/hotWords")).hotWords ?? [],
  });
}
