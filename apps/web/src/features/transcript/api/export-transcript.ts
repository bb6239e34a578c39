import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { baseName, saveBlob } from "../lib/save-blob.ts";

export type ExportKind = "txt" | "word" | "srt" | "vtt" | "summaryWord";

const EXPORTS: Record<ExportKind, { path: string; ext: string; params?: Record<string, number> }> = {
  txt: { path: "/api/v3/audio/text/export_txt", ext: "txt", params: { withSpeaker: 1, withTime: 1 } },
  word: { path: "/api/v3/audio/text/export_word", ext: "docx" },
  srt: { path: "/api/v3/audio/text/export_srt", ext: "srt" },
  vtt: { path: "/api/v3/audio/text/export_vtt", ext: "vtt" },
  summaryWord: { path: "/text/abstracts_export_word", ext: "docx" },
};

export function exportFileName(kind: ExportKind, fileName: string, summarySuffix: string): string {
  const base = baseName(fileName);
  return `${kind === "summaryWord" ? `${base}-${summarySuffix}` : base}.${EXPORTS[kind].ext}`;
}

/** Blob exports through the API client (an empty body is an error there), saved with <a download>. */
export async function exportTranscript(kind: ExportKind, fileId: number, fileName: string) {
  const spec = EXPORTS[kind];
  const blob = await api<Blob>(spec.path, { params: { fileId, ...spec.params }, responseType: "blob" });
  saveBlob(blob, fileName);
}

export function useExportTranscript(fileId: number) {
  return useMutation({
    mutationFn: ({ kind, fileName }: { kind: ExportKind; fileName: string }) =>
      exportTranscript(kind, fileId, fileName),
  });
}
