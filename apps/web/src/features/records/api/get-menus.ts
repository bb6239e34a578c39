import { useQuery } from "@tanstack/react-query";
import type { MenuItem } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** The user's folders (spec §3 Menu item). */
export function useMenus() {
  return useQuery({
    queryKey: queryKeys.menus,
    queryFn: () => api<MenuItem[]>("/api/v2/menu/sound_list", { params: { source: 0 } }),
  });
}
