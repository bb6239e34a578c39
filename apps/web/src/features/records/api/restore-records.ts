import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export function useRestoreRecords() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fileIds: number[]) =>
      api<unknown>("/api/v1/audio/record/restore", { data: { fileIds: fileIds.join(",") } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
