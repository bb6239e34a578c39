import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { meKeys } from "../../account/api.ts";
import { recordKeys } from "./keys.ts";

export function useDeleteForever() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (fileIds: number[]) =>
      api<unknown>("/api/v1/audio/record/delete_forever", { data: { fileIds: fileIds.join(",") } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: recordKeys.all });
      void client.invalidateQueries({ queryKey: meKeys.storage });
    },
  });
}
