import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";
import type { MenuItem } from "./types.ts";

export function useUpdateMenu() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (menu: MenuItem) => api<MenuItem>("/api/v2/menu/update", { data: menu }),
    onSuccess: () => client.invalidateQueries({ queryKey: recordKeys.menus }),
  });
}
