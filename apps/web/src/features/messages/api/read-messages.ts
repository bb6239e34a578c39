import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { markReadLocally } from "./get-messages.ts";

/** read_msg and read_all_msg answer how many they marked and the unread count after. */
interface ReadResult {
  read: number;
  unreadSize: number;
}
type Unread = { unreadSize: number } | undefined;

/** Marks one message read: at once in the lists and the badge, then as the server counts it. */
export function useReadMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (notifyId: number) =>
      api<ReadResult>("/notify/read_msg", { method: "POST", data: { notifyId }, silent: true }),
    onMutate: (notifyId) => {
      markReadLocally(client, (m) => m.notifyId === notifyId);
      client.setQueryData<Unread>(queryKeys.unread, (old) =>
        old ? { unreadSize: Math.max(0, old.unreadSize - 1) } : old,
      );
    },
    onSuccess: (result) => client.setQueryData(queryKeys.unread, { unreadSize: result.unreadSize }),
    onError: () => void client.invalidateQueries({ queryKey: queryKeys.unread }),
  });
}

/** Spec §4 'mark all read': every listed message, and the badge to the server's count (0). */
export function useReadAllMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<ReadResult>("/notify/read_all_msg", { method: "POST", silent: true }),
    onMutate: () => {
      markReadLocally(client, () => true);
      client.setQueryData(queryKeys.unread, { unreadSize: 0 });
    },
    onSuccess: (result) => client.setQueryData(queryKeys.unread, { unreadSize: result.unreadSize }),
    onError: () => {
      void client.invalidateQueries({ queryKey: queryKeys.unread });
      void client.invalidateQueries({ queryKey: queryKeys.messages.all });
    },
  });
}
