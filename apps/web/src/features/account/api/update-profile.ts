import { useQueryClient } from "@tanstack/react-query";
import type { UserInfo } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** The nickname or the avatar (a site-relative or http(s) URL): the server answers the user info after. */
export function useUpdateProfile() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (change: { nickName: string } | { userPhoto: string }) =>
      api<UserInfo>("/api/v1/user/update_info", { method: "POST", data: change }),
    onSuccess: (info) => client.setQueryData(queryKeys.userInfo, info),
  });
}

/** An avatar image of the user's own (upload_photo stores it and answers the user info). */
export function useUploadAvatar() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (file: File) => api<UserInfo>("/api/v1/user/upload_photo", { method: "POST", form: { file } }),
    onSuccess: (info) => client.setQueryData(queryKeys.userInfo, info),
  });
}
