import { useEffect, useState } from "react";
import type { TextPoint } from "../lib/clip-range.ts";

/** Text selected across the transcript's lines: its two ends, and where it is on screen. */
export interface WordSelection {
  from: TextPoint;
  to: TextPoint;
  /** the selection's box (viewport coordinates), to put the Clip button by it */
  rect: { top: number; left: number; bottom: number; right: number };
}

/** The segment and character offset of a point of the selection, when it lies in a line's text. */
function pointOf(node: Node | null, offset: number): TextPoint | null {
  const element = node instanceof Element ? node : node?.parentElement;
  const text = element?.closest<HTMLElement>(".segment-text");
  const row = text?.closest<HTMLElement>(".segment-row[data-index]");
  if (!text || !row || !node) return null;
  // characters before the point: the text nodes of the line before it (search marks split the text)
  let before = 0;
  const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n === node) return { index: Number(row.dataset.index), offset: before + offset };
    before += n.textContent?.length ?? 0;
  }
  // the point is the line's element itself: `offset` counts its children
  return { index: Number(row.dataset.index), offset: offset === 0 ? 0 : (text.textContent?.length ?? 0) };
}

/**
 * The words the user selects in the transcript (issue 45: select words → Clip), or null: both ends of the
 * document's selection must lie in lines' text and the selection must hold something.
 */
export function useWordSelection(): WordSelection | null {
  const [selection, setSelection] = useState<WordSelection | null>(null);
  useEffect(() => {
    const read = () => {
      const s = document.getSelection();
      if (!s || s.isCollapsed || s.rangeCount === 0) return setSelection(null);
      const from = pointOf(s.anchorNode, s.anchorOffset);
      const to = pointOf(s.focusNode, s.focusOffset);
      if (!from || !to) return setSelection(null);
      const box = s.getRangeAt(0).getBoundingClientRect?.();
      setSelection({
        from,
        to,
        rect: { top: box?.top ?? 0, left: box?.left ?? 0, bottom: box?.bottom ?? 0, right: box?.right ?? 0 },
      });
    };
    document.addEventListener("selectionchange", read);
    return () => document.removeEventListener("selectionchange", read);
  }, []);
  return selection;
}
