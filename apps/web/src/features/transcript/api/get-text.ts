import { useQuery } from "@tanstack/react-query";
import type { Segment, TextDetail } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { parseSegments } from "../lib/segments.ts";

/** The transcript as the page uses it: the record's text details with its segments parsed. */
export interface Transcript extends Omit<TextDetail, "asrResult" | "version"> {
  segments: Segment[];
  /** what edits are made on (docs/records-api.md "Versions"); absent, edits go without one */
  version?: number;
}

export async function getText(fileId: number): Promise<Transcript> {
  const { asrResult, ...rest } = await api<TextDetail>("/api/v2/audio/text/get_text", {
    params: { fileId },
    silent: true,
  });
  return { ...rest, segments: parseSegments(asrResult) };
}

export function useTranscript(fileId: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.transcript.text(fileId), queryFn: () => getText(fileId), enabled });
}
