/** A text cut at its highlighted ranges: the pieces to render, marked or not. */
export interface Piece {
  text: string;
  mark: boolean;
}

/** `ranges` are [start, end) offsets, sorted and not overlapping (the API merges them); bad ones are skipped. */
export function piecesOf(text: string, ranges: readonly (readonly [number, number])[]): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) out.push({ text: text.slice(at, start), mark: false });
    out.push({ text: text.slice(start, end), mark: true });
    at = end;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}

/** A hit's time as the player shows it: m:ss, or h:mm:ss past an hour. */
export function hitClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** /detail playing from `startTime` (ms) with the query's words marked (features/transcript reads t and q). */
export function detailHref(
  detailPath: string,
  hit: { fileId: number; fileName: string; startTime?: number; q: string },
) {
  const params = new URLSearchParams({ fileId: String(hit.fileId), fileName: hit.fileName });
  if (hit.startTime !== undefined) params.set("t", String(hit.startTime));
  params.set("q", hit.q);
  return `${detailPath}?${params.toString()}`;
}
