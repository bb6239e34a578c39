import type { Segment } from "@yuelu/contracts";

/** asrResult is the JSON text of the segments; anything unreadable is an empty transcript. */
export function parseSegments(asrResult: unknown): Segment[] {
  let value = asrResult;
  if (typeof value === "string") {
    if (value.trim() === "") return [];
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (value && typeof value === "object" && !Array.isArray(value) && "segments" in value) {
    value = (value as { segments: unknown }).segments;
  }
  if (!Array.isArray(value)) return [];
  return value.map((s: Partial<Segment>) => ({
    ...s,
    spkName: String(s?.spkName ?? ""),
    startTime: Number(s?.startTime) || 0,
    endTime: Number(s?.endTime) || 0,
    text: String(s?.text ?? ""),
  }));
}

/**
 * The index of the segment under the playhead at `ms`, or -1 (before the first, in a pause).
 * Segments come in time order (the engine writes them so), which makes this a binary search:
 * it runs on every timeupdate of a transcript that may have 20 000 segments. Where segments
 * overlap, the later one wins; a segment without a usable end lasts until the next begins.
 */
export function segmentAt(segments: readonly Segment[], ms: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((segments[mid]?.startTime ?? 0) <= ms) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (found < 0) return -1;
  const seg = segments[found]!;
  const end = seg.endTime > seg.startTime ? seg.endTime : (segments[found + 1]?.startTime ?? Number.POSITIVE_INFINITY);
  return ms < end ? found : -1;
}

/** mm:ss (h:mm:ss from an hour on). */
export function formatMs(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** Each speaker's index, in order of first appearance (the avatar colour follows it). */
export function speakerIndexes(segments: readonly Segment[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const s of segments) if (!map.has(s.spkName)) map.set(s.spkName, map.size);
  return map;
}

/** Spec §9: the speaker avatar colour cycles through 3 gradients. */
export const AVATAR_GRADIENTS = 3;
export function avatarGradient(speakerIndex: number): number {
  return ((speakerIndex % AVATAR_GRADIENTS) + AVATAR_GRADIENTS) % AVATAR_GRADIENTS;
}

/**
 * The avatar: a default label shows its number (说话人1 → "1", Speaker 12 → "12": "说" or "S" on every avatar
 * tells no one apart); a name given shows its first character (王老师 → 王, a whole code point, so not half
 * an emoji).
 */
export function avatarText(name: string): string {
  const trimmed = name.trim();
  const number = /^(?:说话人|speaker\s*)(\d{1,4})$/i.exec(trimmed)?.[1];
  if (number !== undefined) return String(Number(number));
  return [...trimmed][0]?.toUpperCase() ?? "?";
}

/** Segments after a rename: one, or (renameAll) every segment that carried the old name. */
export function renameSpeaker(segments: Segment[], index: number, name: string, all: boolean): Segment[] {
  const old = segments[index]?.spkName;
  return segments.map((s, i) => (i === index || (all && s.spkName === old) ? { ...s, spkName: name } : s));
}
