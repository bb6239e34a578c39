import { useQueryClient } from "@tanstack/react-query";
import type { AdminMessageSend, AdminSentMessage } from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type SentMessageFilter = "audience" | "userId";

/** GET /admin/messages: what operators sent, with how many read it. */
export function useSentMessages(query: TableQuery & Record<SentMessageFilter, string>) {
  return useAdminList<AdminSentMessage>("messages", adminPaths.messages, query);
}

/** POST /admin/messages: to everyone or to one user; the requestId sends it once. */
export function useSendMessage() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (body: AdminMessageSend) =>
      adminApi<{ notifyId: number; created: boolean }>(adminPaths.messages, { method: "POST", data: body }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("messages") }),
  });
}
