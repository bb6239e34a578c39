import type { BatchDownloadInclude, BatchTranscriptFormat } from "@yuelu/contracts/constants";
import { apiBase } from "@/config/env.ts";

/**
 * Download links for originals and zips. These can be a gigabyte or more, so the browser streams
 * them to disk from a plain link (the session cookie goes along) instead of holding a Blob in
 * memory; the server sends them as attachments with their names.
 */
function url(path: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams({ ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  query.set("source", "0");
  query.set("timeStamp", String(Date.now()));
  return `${apiBase()}${path}?${query}`;
}

export function audioDownloadUrl(fileId: number): string {
  return url("/api/v3/audio/download", { fileId, inline: 0 });
}

/** A zip of the records' originals, or (docs/records-api.md) of their transcripts in `format`, or both. */
export function batchDownloadUrl(
  fileIds: number[],
  contents: { include?: BatchDownloadInclude; format?: BatchTranscriptFormat } = {},
): string {
  const { include = "audio", format = "txt" } = contents;
  return url("/api/v1/audio/download/batch", {
    fileIds: fileIds.join(","),
    ...(include !== "audio" ? { include, format } : {}),
  });
}

/** Follows a download link without leaving the page. */
export function startDownload(href: string, fileName = "") {
  const a = document.createElement("a");
  a.href = href;
  a.download = fileName;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}
