import { useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AdminBeanEntry,
  AdminGrantBody,
  AdminGrantResult,
  AdminUserDetail,
  AdminUserRow,
  AdminUserStatusResult,
} from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type UserFilter = "q" | "role" | "status";

/** GET /admin/users: search by phone (or its start) or id, filter by role and status. */
export function useUsers(query: TableQuery & Record<UserFilter, string>) {
  return useAdminList<AdminUserRow>("users", adminPaths.users, query);
}

/** GET /admin/users/:userId: membership, cards, orders, storage, grants. */
export function useUser(userId: number) {
  return useQuery({
    queryKey: adminKeys.item("users", userId),
    queryFn: () => adminApi<AdminUserDetail>(adminPaths.user(userId)),
    enabled: userId > 0,
  });
}

/** GET /admin/users/:userId/beans: the user's bean ledger. */
export function useBeanLedger(userId: number, query: TableQuery) {
  return useAdminList<AdminBeanEntry>("users", adminPaths.userBeans(userId), query);
}

/**
 * POST /admin/users/:userId/grants: membership days, a time card or beans, with a reason; the
 * body's requestId makes a repeated call grant once.
 */
export function useGrant(userId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (body: AdminGrantBody) =>
      adminApi<AdminGrantResult>(adminPaths.userGrants(userId), { method: "POST", data: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("users") }),
  });
}

/** POST /admin/users/:userId/disable | enable, with a reason. */
export function useSetUserDisabled(userId: number) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ disabled, reason }: { disabled: boolean; reason: string }) =>
      adminApi<AdminUserStatusResult>(adminPaths.userStatus(userId, disabled ? "disable" : "enable"), {
        method: "POST",
        data: { reason },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("users") }),
  });
}
