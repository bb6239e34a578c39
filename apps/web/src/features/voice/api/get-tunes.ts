import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { voicePaths } from "./paths.ts";
import type { TuneList } from "./types.ts";

/** The built-in tunes, named in the page's language, with their melodies and default lyrics. */
export function useTunes() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.voiceTunes(i18n.language),
    queryFn: () => api<TuneList>(voicePaths.tunes),
    staleTime: 10 * 60_000,
  });
}
