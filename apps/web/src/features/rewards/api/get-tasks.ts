import { useQuery } from "@tanstack/react-query";
import type { TaskList } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Spec §3 task list: [daily tasks, challenges], named in the UI's language. Failures are only logged (spec §8). */
export function useTasks() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.tasks.list(i18n.language),
    queryFn: () => api<TaskList>("/api/v1/challenge/task_list", { silent: true }),
    enabled: useAccountReady(),
  });
}
