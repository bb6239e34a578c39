import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Assets, StorageInfo, UserInfo } from "@yuelu/contracts";
import { api } from "../../lib/api-client.ts";
import { useSession } from "../session/session-store.ts";

/** Query keys of the signed-in user's data; everything under ["me"] is dropped at sign-in/out. */
export const meKeys = {
  all: ["me"] as const,
  deletion: ["me", "deletion"] as const,
  info: ["me", "info"] as const,
  storage: ["me", "storage"] as const,
  assets: ["me", "assets"] as const,
  unread: ["me", "unread"] as const,
  menus: ["me", "menus"] as const,
};

export interface DeletionStatus {
  status: number;
  deleteTime: number;
  purgeTime: number;
}

export const deletionStatusQuery = queryOptions({
  queryKey: meKeys.deletion,
  queryFn: () => api<DeletionStatus>("/api/v3/user/delete_account_status", { method: "POST" }),
});

/** The after-login loads (spec §4) run only once the account is known not to be being deleted. */
function useSignedInReady(): boolean {
  const session = useSession();
  const deletion = useQuery({ ...deletionStatusQuery, enabled: session.loggedIn });
  return session.loggedIn && deletion.data?.status === 0;
}

export function useUserInfo() {
  return useQuery({
    queryKey: meKeys.info,
    queryFn: () => api<UserInfo & { inviteCode?: string }>("/api/v1/user/info"),
    enabled: useSignedInReady(),
  });
}

export function useStorageInfo() {
  const session = useSession();
  return useQuery({
    queryKey: meKeys.storage,
    queryFn: () => api<StorageInfo>("/api/v1/user/storage_info", { params: { userId: session.userId, source: 0 } }),
    enabled: useSignedInReady(),
  });
}

export function useAssets() {
  return useQuery({
    queryKey: meKeys.assets,
    queryFn: () => api<Assets>("/api/v1/store/get_asset", { method: "POST", silent: true }),
    enabled: useSignedInReady(),
  });
}

export function useUnreadSize() {
  return useQuery({
    queryKey: meKeys.unread,
    queryFn: () => api<{ unreadSize: number }>("/notify/get_unread_size", { method: "POST", silent: true }),
    enabled: useSignedInReady(),
    refetchInterval: 60_000,
  });
}

export function useMenuList() {
  return useQuery({
    queryKey: meKeys.menus,
    queryFn: () => api<{ menuId: string; menuName: string }[]>("/api/v2/menu/sound_list", { params: { source: 0 } }),
    enabled: useSignedInReady(),
  });
}

export function useCancelDeletion() {
  return useMutation({
    mutationFn: () => api<DeletionStatus>("/api/v3/user/cancel_delete_account", { method: "POST" }),
  });
}

export type GiftKind = "new_user" | "invite" | "black_card";

/** Marks welcome gifts as announced, so their dialogs are shown once. */
export function useMarkGiftsShown() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (giftsShown: GiftKind[]) =>
      api<UserInfo>("/api/v1/user/update_info", { data: { giftsShown }, silent: true }),
    onSuccess: (info) => client.setQueryData(meKeys.info, info),
  });
}
