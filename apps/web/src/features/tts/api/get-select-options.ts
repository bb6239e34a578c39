import { useQuery } from "@tanstack/react-query";
import type { SelectOptions } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { ttsPaths } from "./paths.ts";

/** The library's filter values with their labels, the default voices and start_tts's limits. */
export function useSelectOptions() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.voiceLibrary.options(i18n.language),
    queryFn: () => api<SelectOptions>(ttsPaths.selectOptions, { params: { source: 0 }, silent: true }),
    staleTime: 5 * 60_000,
  });
}
