import { useQuery } from "@tanstack/react-query";
import type { HelpDocument } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export type HelpTitle = Omit<HelpDocument, "content">;

/** The documents' titles, in the UI's language. A failed load is toasted (spec §8: an alert). */
export function useHelpTitles() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.help.titles(i18n.language),
    queryFn: () => api<HelpTitle[]>("/help_document/get_title"),
  });
}

export function useHelpDocument(slug: string | undefined) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.help.document(slug, i18n.language),
    queryFn: () => api<HelpDocument>("/help_document/get", { params: { slug } }),
    enabled: Boolean(slug),
  });
}
