import { type RefObject, useLayoutEffect, useState } from "react";

export interface ListGeometry {
  /** the list's top in page coordinates (the window virtualiser's scrollMargin) */
  top: number;
  /** the list's width (row heights are estimated from it) */
  width: number;
  /** how much of the viewport's top the sticky header and player cover */
  covered: number;
}

const same = (a: ListGeometry, b: ListGeometry) =>
  Math.abs(a.top - b.top) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.covered - b.covered) < 0.5;

/**
 * Where the segment list sits on the page, measured before paint and again whenever something
 * above it changes size (a video's picture arrives, the search line wraps) or the window does.
 */
export function useListGeometry(
  list: RefObject<HTMLElement | null>,
  sticky: RefObject<HTMLElement | null>,
): ListGeometry {
  const [geometry, setGeometry] = useState<ListGeometry>({ top: 0, width: 0, covered: 0 });
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const measure = () => {
      const rect = el.getBoundingClientRect();
      const bar = sticky.current;
      const stuckAt = bar ? Number.parseFloat(getComputedStyle(bar).top) : Number.NaN;
      const next = {
        top: rect.top + window.scrollY,
        width: rect.width,
        covered: bar && Number.isFinite(stuckAt) ? stuckAt + bar.offsetHeight : 0,
      };
      setGeometry((prev) => (same(prev, next) ? prev : next));
    };
    measure();
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(measure);
    for (const target of [el.parentElement, sticky.current, document.body]) if (target) observer?.observe(target);
    window.addEventListener("resize", measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, [list, sticky]);
  return geometry;
}
