import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Deleting a folder moves its records out of any folder: both the folders and the lists change. */
export function useDeleteMenu() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (menuId: string) => api<unknown>("/api/v2/menu/delete", { data: { menuId } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.menus });
      void client.invalidateQueries({ queryKey: queryKeys.records.lists() });
    },
  });
}
