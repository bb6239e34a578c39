import { useEffect, useEffectEvent } from "react";

/** Keys that scroll the page when no field has the focus. */
const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName);
}

/**
 * Calls `onUserScroll` when the person scrolls the page themselves — wheel, touch, scrolling keys,
 * a press on the page's scrollbar — and not when the page scrolls itself (following the playing
 * segment, jumping to a search match), which a plain scroll event cannot tell apart.
 */
export function useUserScroll(onUserScroll: () => void) {
  const fire = useEffectEvent(onUserScroll);
  useEffect(() => {
    const scrolled = () => fire();
    const onKey = (e: KeyboardEvent) => {
      // (a key the page took for itself — the space bar playing or pausing — scrolls nothing)
      if (SCROLL_KEYS.has(e.key) && !e.defaultPrevented && !typingIn(e.target)) fire();
    };
    const onPointer = (e: PointerEvent) => {
      const root = document.documentElement;
      if (root.clientWidth > 0 && (e.clientX >= root.clientWidth || e.clientY >= root.clientHeight)) fire();
    };
    window.addEventListener("wheel", scrolled, { passive: true });
    window.addEventListener("touchmove", scrolled, { passive: true });
    window.addEventListener("keydown", onKey);
    window.addEventListener("pointerdown", onPointer);
    return () => {
      window.removeEventListener("wheel", scrolled);
      window.removeEventListener("touchmove", scrolled);
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("pointerdown", onPointer);
    };
  }, []);
}
