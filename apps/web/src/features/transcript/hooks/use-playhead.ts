import { createContext, type RefObject, useContext, useEffect, useEffectEvent, useSyncExternalStore } from "react";
import { createPlayhead, type Playhead } from "../lib/playhead.ts";
import { type TimedSpan, wordAt } from "../lib/word-times.ts";

/** The page's playhead (TranscriptView provides it); elsewhere one that never moves. */
export const PlayheadContext = createContext<Playhead>(createPlayhead());

const still = () => () => {};

/**
 * The index of the word being spoken in a row's words, or -1: only while the row is the playing one (the
 * others do not even listen, so a frame costs one row's binary search and, when the word changed, one row's
 * render).
 */
export function useWordUnderPlayhead(spans: readonly TimedSpan[] | null, playing: boolean): number {
  const playhead = useContext(PlayheadContext);
  const listening = playing && spans !== null;
  return useSyncExternalStore(listening ? playhead.subscribe : still, () =>
    listening ? wordAt(spans, playhead.get()) : -1,
  );
}

/**
 * Calls `onFrame` with the position (ms) on every animation frame while the media plays: timeupdate comes
 * only about 4 times a second, slower than words are spoken.
 */
export function usePlaybackFrames(
  media: RefObject<HTMLMediaElement | null>,
  onFrame: (ms: number) => void,
  key: unknown,
) {
  const frame = useEffectEvent(onFrame);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the media element (audio or video)
  useEffect(() => {
    const el = media.current;
    if (!el) return;
    let id = 0;
    const tick = () => {
      frame(el.currentTime * 1000);
      id = el.paused || el.ended ? 0 : requestAnimationFrame(tick);
    };
    const start = () => {
      if (id === 0) id = requestAnimationFrame(tick);
    };
    const stop = () => {
      cancelAnimationFrame(id);
      id = 0;
    };
    el.addEventListener("playing", start);
    el.addEventListener("play", start);
    el.addEventListener("pause", stop);
    el.addEventListener("ended", stop);
    el.addEventListener("emptied", stop);
    if (!el.paused) start();
    return () => {
      stop();
      el.removeEventListener("playing", start);
      el.removeEventListener("play", start);
      el.removeEventListener("pause", stop);
      el.removeEventListener("ended", stop);
      el.removeEventListener("emptied", stop);
    };
  }, [media, key]);
}
