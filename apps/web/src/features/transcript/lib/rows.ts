/**
 * Sizes and ranges for the virtualised segment list (segment-list.tsx). A 5-hour recording has
 * some 3 600 segments: only the rows on screen are in the DOM, placed by their measured heights;
 * the heights of rows not yet seen are estimated from their text, so the scrollbar hardly moves
 * when they are measured.
 */

/** The row's fixed parts (segment-item.css): padding, the speaker/time line, the avatar's width and gap. */
const ROW_PADDING = 20;
const HEAD_HEIGHT = 24;
const AVATAR_AND_GAP = 46 + 3;
const MIN_ROW = 56;
/** The text's font size and line height (editable-text.css: 14 px × 1.75). */
const FONT_PX = 14;
const LINE_PX = 24.5;
/** What an unmeasured list is taken to be wide (a desktop's transcript column). */
const DEFAULT_WIDTH = 760;

/** Han, kana, hangul and full-width forms take a whole em; Latin text about half of one. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** The text's width in ems, roughly. */
export function textEms(text: string): number {
  let ems = 0;
  for (const ch of text) ems += WIDE.test(ch) ? 1 : 0.55;
  return ems;
}

/** A row's height before it is measured: its text wrapped at the list's width. */
export function estimateRowHeight(text: string, listWidth: number): number {
  const width = listWidth > 0 ? listWidth : DEFAULT_WIDTH;
  const textWidth = Math.max(120, width - ROW_PADDING - AVATAR_AND_GAP);
  const lines = Math.max(1, Math.ceil((textEms(text) * FONT_PX) / textWidth));
  return Math.max(MIN_ROW, Math.round(ROW_PADDING + HEAD_HEIGHT + lines * LINE_PX));
}

/** Where the translation goes beside the original (segment-item.css: side by side above 768 px, stacked below). */
const SIDE_BY_SIDE_FROM = 700;
const SIDE_GAP = 16;

/**
 * A row's height before it is measured when a translation is shown: in its place, side by side (the taller of
 * the two halves), or under the original on narrow lists.
 */
export function estimateTranslatedRowHeight(
  text: string,
  translation: string,
  view: "side" | "translation",
  listWidth: number,
): number {
  if (view === "translation") return estimateRowHeight(translation, listWidth);
  const width = listWidth > 0 ? listWidth : DEFAULT_WIDTH;
  if (width >= SIDE_BY_SIDE_FROM) {
    // each half is (text width − gap) / 2 wide: as a list of that text width plus the row's fixed parts
    const half = (width - ROW_PADDING - AVATAR_AND_GAP - SIDE_GAP) / 2 + ROW_PADDING + AVATAR_AND_GAP;
    return Math.max(estimateRowHeight(text, half), estimateRowHeight(translation, half));
  }
  const fixed = ROW_PADDING + HEAD_HEIGHT;
  return estimateRowHeight(text, width) + estimateRowHeight(translation, width) - fixed + 4;
}

/**
 * The rows to render: those in view (with overscan) plus the pinned ones — a row being edited or
 * whose speaker is being renamed stays mounted when it is scrolled away, or its draft and its
 * pending save would be lost with it. Sorted, without duplicates.
 */
export function withPinned(visible: readonly number[], pinned: readonly number[], count: number): number[] {
  const extra = pinned.filter((i) => i >= 0 && i < count && !visible.includes(i));
  if (extra.length === 0) return [...visible];
  return [...visible, ...extra].sort((a, b) => a - b);
}

/** Whether [start, end) lies wholly inside the visible band [top, bottom). */
export function fullyVisible(start: number, end: number, top: number, bottom: number): boolean {
  return start >= top - 1 && end <= bottom + 1;
}
