import { useMutation } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { baseName, saveBlob } from "../lib/save-blob.ts";

export type ExportKind = "txt" | "word" | "srt" | "vtt" | "summaryWord";

/** What a transcript export includes besides the text (TXT and Word: both; subtitles: the speaker). */
export interface ExportOptions {
  withSpeaker: boolean;
  withTime: boolean;
}

/** Subtitles with the record's done translation (docs/notes.md "Exports"): under the original, or instead of it. */
export interface SubtitleTranslation {
  target: "zh" | "en";
  bilingual: boolean;
}
export const DEFAULT_EXPORT_OPTIONS: ExportOptions = { withSpeaker: true, withTime: true };

const EXPORTS: Record<ExportKind, { path: string; ext: string }> = {
  txt: { path: "/api/v3/audio/text/export_txt", ext: "txt" },
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
export async function exportTranscript(
  kind: ExportKind,
  fileId: number,
  fileName: string,
  options: ExportOptions = DEFAULT_EXPORT_OPTIONS,
  translation?: SubtitleTranslation,
) {
  const spec = EXPORTS[kind];
  const params = {
    fileId,
    withSpeaker: options.withSpeaker ? 1 : 0,
    withTime: options.withTime ? 1 : 0,
    ...(translation ? { translation: translation.target, bilingual: translation.bilingual } : {}),
  };
  const blob = await api<Blob>(spec.path, { params, responseType: "blob" });
  saveBlob(blob, fileName);
}

export function useExportTranscript(fileId: number) {
  return useMutation({
    mutationFn: ({
      kind,
      fileName,
      options,
      translation,
    }: {
      kind: ExportKind;
      fileName: string;
      options?: ExportOptions;
      translation?: SubtitleTranslation;
    }) => exportTranscript(kind, fileId, fileName, options, translation),
  });
}
