import { useQuery } from "@tanstack/react-query";
import type { FeedbackCategory } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** The feedback categories, in the UI's language (public). A failed load is toasted (spec §8: an alert). */
export function useFeedbackCategories(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.feedbackCategories(i18n.language),
    queryFn: () => api<FeedbackCategory[]>("/feedback/get_question_category"),
    staleTime: 10 * 60_000,
    enabled,
  });
}
