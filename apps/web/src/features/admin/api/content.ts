import { useQueryClient } from "@tanstack/react-query";
import type { AdminFeedback, AdminHelpCreate, AdminHelpDoc, AdminHelpEdit } from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type HelpFilter = "q";
export type FeedbackFilter = "handled" | "userId";

/** GET /admin/help: the help centre's documents. */
export function useHelpDocs(query: TableQuery & Record<HelpFilter, string>) {
  return useAdminList<AdminHelpDoc>("content", adminPaths.help, query);
}

/** What a change of the help documents makes stale: the console's table and the help centre this browser cached. */
function useHelpChanged() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: adminKeys.area("content") });
    void client.invalidateQueries({ queryKey: ["help"] });
  };
}

/** POST /admin/help (create) or PATCH /admin/help/:id (only the fields sent change). */
export function useSaveHelpDoc() {
  const changed = useHelpChanged();
  return useSubmitMutation({
    mutationFn: (save: { create: AdminHelpCreate } | { id: number; edit: AdminHelpEdit }) =>
      "create" in save
        ? adminApi<AdminHelpDoc>(adminPaths.help, { method: "POST", data: save.create })
        : adminApi<AdminHelpDoc>(adminPaths.helpItem(save.id), { method: "PATCH", data: save.edit }),
    onSuccess: changed,
  });
}

/** DELETE /admin/help/:id. */
export function useDeleteHelpDoc() {
  const changed = useHelpChanged();
  return useSubmitMutation({
    mutationFn: (id: number) => adminApi<{ deleted: boolean }>(adminPaths.helpItem(id), { method: "DELETE" }),
    onSuccess: changed,
  });
}

/** GET /admin/feedback: users' feedback, handled or not. */
export function useFeedback(query: TableQuery & Record<FeedbackFilter, string>) {
  return useAdminList<AdminFeedback>("content", adminPaths.feedback, query);
}

/** POST /admin/feedback/:id/handle: mark it handled (or not). */
export function useMarkHandled() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ id, handled }: { id: number; handled: boolean }) =>
      adminApi<AdminFeedback>(adminPaths.feedbackHandle(id), { method: "POST", data: { handled } }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("content") }),
  });
}

/** POST /admin/feedback/:id/reply: to the user's message centre (once per feedback), and marks it handled. */
export function useReplyFeedback() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ id, text, textEn }: { id: number; text: string; textEn: string }) =>
      adminApi<{ feedback: AdminFeedback; sent: boolean }>(adminPaths.feedbackReply(id), {
        method: "POST",
        data: { text, textEn },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("content") }),
  });
}
