import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { parseSegments, type Segment } from "../lib/segments.ts";
import { transcriptKeys } from "./keys.ts";

interface TextResponse {
  fileId: number;
  fileName: string;
  updateTime: number;
  timeLen: number;
  language?: string;
  asrResult: string;
  abstracts?: string | null;
}

export interface Transcript extends Omit<TextResponse, "asrResult"> {
  segments: Segment[];
}

export async function getText(fileId: number): Promise<Transcript> {
  const { asrResult, ...rest } = await api<TextResponse>("/api/v2/audio/text/get_text", {
    params: { fileId },
    silent: true,
  });
  return { ...rest, segments: parseSegments(asrResult) };
}

export function useTranscript(fileId: number, enabled: boolean) {
  return useQuery({ queryKey: transcriptKeys.text(fileId), queryFn: () => getText(fileId), enabled });
}
