import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UserInfo, WelcomeGiftKind } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Marks welcome gifts as announced, so their dialogs are shown once. */
export function useMarkGiftsShown() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (giftsShown: WelcomeGiftKind[]) =>
      api<UserInfo>("/api/v1/user/update_info", { data: { giftsShown }, silent: true }),
    onSuccess: (info) => client.setQueryData(queryKeys.userInfo, info),
  });
}
