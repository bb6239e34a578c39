import { useQuery } from "@tanstack/react-query";
import type { SoundList } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { voicePaths } from "./paths.ts";

const PARAMS = { page: 1, pageSize: 200, source: 0 };

/** Every voice of the library (the text-to-speech call), for the voice choice of these pages. */
export function useLibraryVoices() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.voiceLibrary.list(PARAMS, i18n.language),
    queryFn: () => api<SoundList>(voicePaths.library, { params: PARAMS, silent: true }),
    staleTime: 60_000,
  });
}
