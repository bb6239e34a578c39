import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Deleting a folder moves its records out of any folder: both the folders and the lists change. */
export function useDeleteMenu() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (menuId: string) => api<unknown>("/api/v2/menu/delete", { data: { menuId } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.menus });
      void client.invalidateQueries({ queryKey: queryKeys.records.lists() });
    },
  });
}
