import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TimedWord } from "@yuelu/contracts/constants";
import { queryKeys } from "@/lib/query-keys.ts";
import { timedSegments } from "./clips.ts";

/** Each segment's measured words (by segment index; undefined: none measured). */
export type WordTimes = readonly (readonly TimedWord[] | undefined)[];

export const wordTimesKey = (fileId: number, version: number | undefined) =>
  [...queryKeys.transcript.all, "words", fileId, version ?? 0] as const;

/**
 * The transcript's word times (get_text withWords=1, some 15× the page's own read on a long record), read after
 * the page shows, once per transcript version: a saved edit moves its words' times. The last version's stay
 * meanwhile (a segment whose text they no longer tell is marked whole: lib/word-times.ts), and only one copy
 * is kept.
 */
export function useWordTimes(fileId: number, version: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: wordTimesKey(fileId, version),
    queryFn: async (): Promise<WordTimes> =>
      (await timedSegments(fileId)).map((s) => (s.words?.length ? s.words : undefined)),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
