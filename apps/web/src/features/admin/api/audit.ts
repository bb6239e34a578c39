import type { AdminAuditEntry } from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type AuditFilter = "action" | "target" | "actorId";

/** GET /admin/audit: what operators (and the command line) did, newest first. */
export function useAuditLog(query: TableQuery & Record<AuditFilter, string>) {
  return useAdminList<AdminAuditEntry>("audit", adminPaths.audit, query);
}
