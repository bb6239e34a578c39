import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { SoundList } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { type LibraryFilters, soundListParams } from "../lib/library-query.ts";
import { ttsPaths } from "./paths.ts";

/** A page of the voice library, filtered (spec §5: every filter at -1 is left out of the query). */
export function useSoundList(filters: LibraryFilters, page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = soundListParams(filters, page, pageSize);
  return useQuery({
    queryKey: queryKeys.voiceLibrary.list(params, i18n.language),
    queryFn: () => api<SoundList>(ttsPaths.soundList, { params }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
