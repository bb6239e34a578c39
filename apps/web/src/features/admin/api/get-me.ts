import { useQuery } from "@tanstack/react-query";
import type { AdminMe } from "@yuelu/contracts";
import { useSession } from "@/lib/session.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";

/**
 * The operator calling (GET /admin/me): who they are and the install's version. Silent: 10001
 * (signed out) and 10007 (not an operator) are answers the access gate shows as pages, not toasts.
 */
export function useAdminMe() {
  const session = useSession();
  return useQuery({
    queryKey: adminKeys.me,
    queryFn: () => adminApi<AdminMe>(adminPaths.me, { silent: true }),
    enabled: session.loggedIn,
    staleTime: 60_000,
  });
}
