import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MenuItem } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export function useUpdateMenu() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (menu: MenuItem) => api<MenuItem>("/api/v2/menu/update", { data: menu }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.menus }),
  });
}
