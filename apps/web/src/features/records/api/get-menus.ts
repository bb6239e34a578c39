import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";
import type { MenuItem } from "./types.ts";

/** The user's folders (spec §3 Menu item; the same cache entry the after-login load fills). */
export function useMenus() {
  return useQuery({
    queryKey: recordKeys.menus,
    queryFn: () => api<MenuItem[]>("/api/v2/menu/sound_list", { params: { source: 0 } }),
  });
}
