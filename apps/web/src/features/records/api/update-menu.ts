import { useQueryClient } from "@tanstack/react-query";
import type { MenuItem } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export function useUpdateMenu() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (menu: MenuItem) => api<MenuItem>("/api/v2/menu/update", { data: menu }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.menus }),
  });
}
