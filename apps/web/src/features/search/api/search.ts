import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SearchResult } from "@yuelu/contracts";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";

/** Results per page of the search page (the API allows 1–50). */
export const SEARCH_PAGE_SIZE = 10;

/** GET /api/v1/search (docs/search.md): the user's records matching `q`, grouped by record. */
export function useSearch(q: string, page: number) {
  const query = q.trim();
  return useQuery({
    queryKey: ["search", query, page],
    queryFn: ({ signal }) =>
      api<SearchResult>("/api/v1/search", {
        params: { q: query, page, pageSize: SEARCH_PAGE_SIZE },
        silent: true,
        signal,
      }),
    enabled: useAccountReady() && query !== "",
    // the previous results stay on screen while the next query runs, instead of flashing a spinner
    placeholderData: keepPreviousData,
  });
}
