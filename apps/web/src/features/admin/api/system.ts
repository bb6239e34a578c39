import { useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AdminEngines,
  AdminFailedJob,
  AdminFigures,
  AdminJobAction,
  AdminQueues,
  AdminRetryFailedResult,
  AdminStoragePage,
  AdminStorageRow,
  AdminVersion,
} from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys, queryParams } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

/**
 * GET /admin/system/figures: daily sign-ups, minutes, revenue and beans for days `from`–`to` (none:
 * the server's last 30); null waits.
 */
export function useFigures(range: { from?: string; to?: string } | null) {
  return useQuery({
    queryKey: adminKeys.list("figures", range ?? {}),
    queryFn: () => adminApi<AdminFigures>(adminPaths.figures, { params: queryParams(range ?? {}) }),
    enabled: range !== null,
  });
}

/** GET /admin/system/version: the version and what this install runs on. */
export function useVersion() {
  return useQuery({
    queryKey: adminKeys.item("system", "version"),
    queryFn: () => adminApi<AdminVersion>(adminPaths.version),
  });
}

/** GET /admin/system/queues: each queue's waiting, active, delayed and failed jobs (refreshed every 10 s). */
export function useQueues() {
  return useQuery({
    queryKey: adminKeys.item("system", "queues"),
    queryFn: () => adminApi<AdminQueues>(adminPaths.queues),
    refetchInterval: 10_000,
  });
}

/**
 * GET /admin/system/engines: the workers' engines and tools, and what is missing — what to do comes in
 * the console's language, so the key names it.
 */
export function useEngines() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...adminKeys.item("system", "engines"), i18n.language],
    queryFn: () => adminApi<AdminEngines>(adminPaths.engines),
  });
}

export type FailedJobFilter = "queue";

/** GET /admin/system/jobs/failed. */
export function useFailedJobs(query: TableQuery & Record<FailedJobFilter, string>) {
  return useAdminList<AdminFailedJob>("system", adminPaths.failedJobs, query);
}

/** POST /admin/system/jobs/:queue/:jobId/retry | remove. */
export function useJobAction() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ queue, id, action }: { queue: string; id: string; action: "retry" | "remove" }) =>
      adminApi<AdminJobAction>(adminPaths.job(queue, id, action), { method: "POST", data: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("system") }),
  });
}

/** POST /admin/system/jobs/retry-failed: every failed job (of one queue, or all) back to waiting. */
export function useRetryFailed() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (queue?: string) =>
      adminApi<AdminRetryFailedResult>(adminPaths.retryFailed, { method: "POST", data: queue ? { queue } : {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("system") }),
  });
}

/** GET /admin/system/storage: users by the bytes they store. */
export function useStorage(query: TableQuery) {
  return useAdminList<AdminStorageRow, AdminStoragePage>("system", adminPaths.storage, query);
}
