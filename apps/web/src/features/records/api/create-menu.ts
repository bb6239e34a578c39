import { useQueryClient } from "@tanstack/react-query";
import type { MenuItem } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export function useCreateMenu() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (menuName: string) => api<MenuItem>("/api/v2/menu/create", { data: { menuName } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.menus }),
  });
}
