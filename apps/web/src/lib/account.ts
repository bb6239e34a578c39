import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import type { Assets, DeleteAccountStatus, StorageInfo, UserInfo } from "@yuelu/contracts";
import { api } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";
import { useSession } from "./session.ts";

/**
 * The signed-in user's own data, shared by every feature (header, onboarding, check-in, profile).
 * Spec §4 "After login": the deletion status is asked first; the rest waits for its answer.
 */

/** 1 while a deletion is pending, 0 otherwise. Asked once per page load (cancelling reloads the page). */
export const deletionStatusQuery = queryOptions({
  queryKey: queryKeys.deletionStatus,
  queryFn: () => api<DeleteAccountStatus>("/api/v3/user/delete_account_status", { method: "POST", silent: true }),
  staleTime: Number.POSITIVE_INFINITY,
});

export type AccountState = "anonymous" | "checking" | "deleting" | "active" | "unknown";

/** Where the signed-in account stands: only "active" may call what needs an active account. */
export function useAccountState(): AccountState {
  const session = useSession();
  const deletion = useQuery({ ...deletionStatusQuery, enabled: session.loggedIn });
  if (!session.loggedIn) return "anonymous";
  if (deletion.data) return deletion.data.status === 1 ? "deleting" : "active";
  return deletion.isError ? "unknown" : "checking";
}

/** True once the account is known not to be being deleted (every personal query waits for it). */
export function useAccountReady(): boolean {
  return useAccountState() === "active";
}

export function useUserInfo() {
  return useQuery({
    queryKey: queryKeys.userInfo,
    queryFn: () => api<UserInfo>("/api/v1/user/info"),
    enabled: useAccountReady(),
  });
}

export function useStorageInfo() {
  const session = useSession();
  return useQuery({
    queryKey: queryKeys.storage,
    queryFn: () => api<StorageInfo>("/api/v1/user/storage_info", { params: { userId: session.userId, source: 0 } }),
    enabled: useAccountReady(),
  });
}

export function useAssets() {
  return useQuery({
    queryKey: queryKeys.assets,
    queryFn: () => api<Assets>("/api/v1/store/get_asset", { method: "POST", silent: true }),
    enabled: useAccountReady(),
  });
}

export function useUnreadSize() {
  return useQuery({
    queryKey: queryKeys.unread,
    queryFn: () => api<{ unreadSize: number }>("/notify/get_unread_size", { method: "POST", silent: true }),
    enabled: useAccountReady(),
    refetchInterval: 60_000,
  });
}

/**
 * The card time and quotas changed on the server: a transcription was charged, a failed one was
 * refunded, a reward was granted. Refetches what the header and the quota bars show.
 */
export function refreshBalances(client: QueryClient) {
  void client.invalidateQueries({ queryKey: queryKeys.storage });
  void client.invalidateQueries({ queryKey: queryKeys.assets });
}

/**
 * A purchase was paid: the membership (user info: the header's badge, isMember), the quotas (a
 * member's daily cap), the card time and the user's orders and time cards all changed.
 */
export function refreshAfterPurchase(client: QueryClient) {
  void client.invalidateQueries({ queryKey: queryKeys.userInfo });
  refreshBalances(client);
  void client.invalidateQueries({ queryKey: queryKeys.commerce.all });
}

/**
 * Beans, a time card or membership days were granted or spent (a check-in, a task's reward, a gift
 * code, a shop exchange): the balances, the ledger, the time cards, the user info (membership), the
 * tasks' progress (these events advance tasks) and the messages they send all changed.
 */
export function refreshAfterReward(client: QueryClient) {
  void client.invalidateQueries({ queryKey: queryKeys.userInfo });
  refreshBalances(client);
  void client.invalidateQueries({ queryKey: queryKeys.beans.all });
  void client.invalidateQueries({ queryKey: queryKeys.commerce.all });
  void client.invalidateQueries({ queryKey: queryKeys.tasks.all });
  void client.invalidateQueries({ queryKey: queryKeys.unread });
  void client.invalidateQueries({ queryKey: queryKeys.messages.all });
}
