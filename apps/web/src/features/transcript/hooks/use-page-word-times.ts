import { useEffect, useState } from "react";
import { useWordTimes, type WordTimes } from "../api/get-word-times.ts";

/** After saving stops for this long, the word times are read again (not after every autosave of a long record). */
const SETTLE_MS = 4_000;

/** `value`, once it has stopped changing for `ms` (the first value at once). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** True once the browser has had a moment after the page showed (the text first, its word times after). */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setIdle(true), { timeout: 1_000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = setTimeout(() => setIdle(true), 100);
    return () => clearTimeout(timer);
  }, []);
  return idle;
}

/** The /detail page's word times (api/get-word-times.ts): read lazily, again once edits settle; undefined until read. */
export function usePageWordTimes(fileId: number, version: number | undefined): WordTimes | undefined {
  const idle = useIdle();
  const settled = useSettled(version, SETTLE_MS);
  return useWordTimes(fileId, settled, idle).data;
}
