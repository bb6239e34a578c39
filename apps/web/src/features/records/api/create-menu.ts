import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";
import type { MenuItem } from "./types.ts";

export function useCreateMenu() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (menuName: string) => api<MenuItem>("/api/v2/menu/create", { data: { menuName } }),
    onSuccess: () => client.invalidateQueries({ queryKey: recordKeys.menus }),
  });
}
