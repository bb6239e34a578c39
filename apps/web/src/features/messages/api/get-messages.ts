import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { Message } from "@yuelu/contracts";
import { PAGE_SIZE_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Spec §4 Messages filter: readSign -1 all, 0 unread only. */
export type ReadSign = -1 | 0;

/**
 * Spec §7 notify/get_list: page 1, pageSize 9999 (spec §9), newest first, in the reader's language.
 * Failures are only logged (spec §8).
 */
export function useMessages(readSign: ReadSign) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.messages.list(readSign, i18n.language),
    queryFn: () =>
      api<Message[]>("/notify/get_list", {
        method: "POST",
        data: { page: 1, pageSize: PAGE_SIZE_MAX, readSign },
        silent: true,
      }),
    enabled: useAccountReady(),
    // asked again on each opening and filter switch: messages arrive from events elsewhere
    staleTime: 0,
  });
}

/** Marks the matching messages read in every cached list (spec §4: 'also locally'), before the server answers. */
export function markReadLocally(client: QueryClient, matches: (message: Message) => boolean) {
  client.setQueriesData<Message[]>({ queryKey: queryKeys.messages.all }, (list) =>
    list?.map((m) => (m.notifyRead === 0 && matches(m) ? { ...m, notifyRead: 1 } : m)),
  );
}
