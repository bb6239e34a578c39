import { VIDEO_FORMATS } from "@yuelu/contracts/constants";

/** "周会.Final.M4A" → "m4a"; "" when there is none (".hidden", "trailing."). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 || dot === name.length - 1 ? "" : name.slice(dot + 1).toLowerCase();
}

/** Whether a record plays in a <video>: its probed format, else its name's extension. */
export function isVideo(record: { format?: string; fileName: string }): boolean {
  return [record.format?.toLowerCase() ?? "", extensionOf(record.fileName)].some((f) => VIDEO_FORMATS.includes(f));
}
