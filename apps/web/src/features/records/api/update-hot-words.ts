import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export function useUpdateHotWords() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (hotWords: string[]) =>
      (await api<{ hotWords: string[] }>("/api/v1/hotWords", { method: "PUT", data: { hotWords } })).hotWords ??
      hotWords,
    onSuccess: (hotWords) => client.setQueryData(queryKeys.hotWords, hotWords),
  });
}
