import { paths } from "@/config/paths.ts";

/** Spec §2 /detail: fileId and timeLen, and fileName for the page title. */
export function detailHref(record: { fileId: number; timeLen: number; fileName: string }): string {
  const q = new URLSearchParams({
    fileId: String(record.fileId),
    timeLen: String(record.timeLen),
    fileName: record.fileName,
  });
  return `${paths.detail}?${q}`;
}
