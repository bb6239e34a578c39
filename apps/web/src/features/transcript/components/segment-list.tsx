import { defaultRangeExtractor, type Range, useWindowVirtualizer } from "@tanstack/react-virtual";
import type { Segment } from "@yuelu/contracts";
import { memo, type RefObject, useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { WordTimes } from "../api/get-word-times.ts";
import { useListGeometry } from "../hooks/use-list-geometry.ts";
import { useUserScroll } from "../hooks/use-user-scroll.ts";
import { estimateRowHeight, estimateTranslatedRowHeight, fullyVisible, withPinned } from "../lib/rows.ts";
import type { Match } from "../lib/search.ts";
import { SegmentItem } from "./segment-item.tsx";
import "./segment-list.css";

/** Rows rendered beyond each edge of the viewport, so a quick scroll never shows a gap. */
const OVERSCAN = 8;
const ROW_GAP = 4;
/** A jump further than this many viewports is instant: smooth-scrolling past hours of text helps no one. */
const SMOOTH_WITHIN_VIEWPORTS = 2;

export interface SegmentListProps {
  segments: readonly Segment[];
  /** each speaker's index (the avatar colour) */
  speakers: ReadonlyMap<string, number>;
  /** the speakers' names, offered when renaming */
  speakerNames: string[];
  /** the segment under the playhead, or -1 */
  active: number;
  /** bumped when the playhead was moved on purpose (a seek): the list follows it again */
  followNonce: number;
  /** the search matches by segment */
  groups: ReadonlyMap<number, { first: number; list: Match[] }>;
  /** the current search match's segment and its list position, when there is one */
  currentMatch: { segment: number; position: number } | undefined;
  /** the sticky player bar: rows under it are not in view */
  stickyRef: RefObject<HTMLElement | null>;
  /** play from segment `index`'s start, or from `ms` (one of its words) */
  onSeek: (index: number, ms?: number) => void;
  /** each segment's measured words, once read */
  wordTimes?: WordTimes | undefined;
  /** the lines typed and not saved yet, by segment index */
  drafts: ReadonlyMap<number, string>;
  onDraft: (index: number, text: string) => void;
  onLeave: () => void;
  onDiscard: (index: number) => void;
  onRename: (index: number, name: string, renameAll: boolean) => Promise<unknown>;
  /** the done translation by segment index, and how to show it (absent: the original only) */
  translations?: ReadonlyMap<number, string>;
  translationView?: "side" | "translation";
  translationLang?: string;
}

/**
 * The transcript's segments, virtualised against the page's own scroll (@tanstack/react-virtual):
 * whatever the length, only the rows in view are in the DOM, each at its measured height.
 *
 * It follows the playing segment — scrolls it into view when it leaves the view — except while a
 * line is being edited or a speaker renamed, and from the moment the person scrolls the page
 * themselves until they come back to the playing segment (scroll it into view, seek, or press
 * "back to the playing segment").
 */
export const SegmentList = memo(function SegmentList({
  segments,
  speakers,
  speakerNames,
  active,
  followNonce,
  groups,
  currentMatch,
  stickyRef,
  onSeek,
  wordTimes,
  drafts,
  onDraft,
  onLeave,
  onDiscard,
  onRename,
  translations,
  translationView,
  translationLang,
}: SegmentListProps) {
  const { t } = useTranslation();
  const list = useRef<HTMLOListElement>(null);
  const geometry = useListGeometry(list, stickyRef);
  const [pinned, setPinned] = useState<number[]>([]);
  const [following, setFollowing] = useState(true);
  const segmentsRef = useRef(segments);
  segmentsRef.current = segments;

  const rangeExtractor = useCallback(
    (range: Range) => withPinned(defaultRangeExtractor(range), pinned, range.count),
    [pinned],
  );
  const estimateSize = useCallback(
    (index: number) => {
      const text = segmentsRef.current[index]?.text ?? "";
      const translation = translationView ? translations?.get(index) : undefined;
      return translation === undefined || !translationView
        ? estimateRowHeight(text, geometry.width)
        : estimateTranslatedRowHeight(text, translation, translationView, geometry.width);
    },
    [geometry.width, translations, translationView],
  );
  const virtualizer = useWindowVirtualizer({
    count: segments.length,
    estimateSize,
    overscan: OVERSCAN,
    gap: ROW_GAP,
    scrollMargin: geometry.top,
    scrollPaddingStart: geometry.covered + 8,
    scrollPaddingEnd: 16,
    rangeExtractor,
  });

  // Estimates follow the width and what a row shows. measure() forgets every measured height, and the rows on
  // screen may not change size again (they already took the new width), so they are measured again at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-estimate when the width or the view changes
  useEffect(() => {
    virtualizer.measure();
    for (const row of list.current?.querySelectorAll<HTMLElement>(".segment-row") ?? [])
      virtualizer.measureElement(row);
  }, [virtualizer, geometry.width, translationView, translations]);

  /** Whether row `index` is wholly in view, under the sticky player. */
  const inView = (index: number): boolean => {
    const item = virtualizer.measurementsCache[index];
    if (!item) return false;
    const top = window.scrollY + geometry.covered;
    return fullyVisible(item.start, item.end, top, window.scrollY + window.innerHeight);
  };

  const scrollTo = (index: number) => {
    const item = virtualizer.measurementsCache[index];
    const far = item ? Math.abs(item.start - window.scrollY) > SMOOTH_WITHIN_VIEWPORTS * window.innerHeight : true;
    virtualizer.scrollToIndex(index, { align: "center", behavior: far ? "auto" : "smooth" });
  };

  useUserScroll(() => setFollowing(false));

  /** Follows the playing segment from now on, bringing it into view. */
  const followNow = () => {
    setFollowing(true);
    if (active >= 0 && pinned.length === 0 && !inView(active)) scrollTo(active);
  };
  const onActive = useEffectEvent((index: number) => {
    if (index < 0 || pinned.length > 0) return;
    const visible = inView(index);
    if (following) {
      if (!visible) scrollTo(index);
    } else if (visible) {
      setFollowing(true); // back to the playing segment by hand: follow it again from here
    }
  });
  const onSeeked = useEffectEvent(followNow);
  useEffect(() => onActive(active), [active]);
  useEffect(() => {
    if (followNonce > 0) onSeeked();
  }, [followNonce]);

  const showMatch = useEffectEvent((segment: number) => {
    setFollowing(false); // searching: the playhead must not pull the page away from the match
    if (!inView(segment)) scrollTo(segment);
  });
  const matchSegment = currentMatch?.segment;
  const matchPosition = currentMatch?.position;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the next match in the same segment is shown too
  useEffect(() => {
    if (matchSegment !== undefined) showMatch(matchSegment);
  }, [matchSegment, matchPosition]);

  const onEditingChange = useCallback((index: number, on: boolean) => {
    setPinned((prev) => (on ? (prev.includes(index) ? prev : [...prev, index]) : prev.filter((i) => i !== index)));
  }, []);
  const seekAndFollow = useCallback(
    (index: number, ms?: number) => {
      setFollowing(true);
      onSeek(index, ms);
    },
    [onSeek],
  );

  const items = virtualizer.getVirtualItems();
  const showFollow = !following && active >= 0 && pinned.length === 0 && !inView(active);
  return (
    <>
      <ol
        className="segments"
        ref={list}
        style={{ height: virtualizer.getTotalSize() }}
        data-current-match={currentMatch?.position ?? 0}
        data-count={segments.length}
      >
        {items.map((item) => {
          const segment = segments[item.index];
          if (!segment) return null;
          return (
            <li
              key={item.key}
              className="segment-row"
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${item.start - geometry.top}px)` }}
              aria-posinset={item.index + 1}
              aria-setsize={segments.length}
            >
              <SegmentItem
                segment={segment}
                index={item.index}
                speakerIndex={speakers.get(segment.spkName) ?? 0}
                active={item.index === active}
                matches={groups.get(item.index)}
                currentMatch={currentMatch?.segment === item.index ? currentMatch.position : -1}
                speakers={speakerNames}
                onSeek={seekAndFollow}
                words={wordTimes?.[item.index]}
                draft={drafts.get(item.index)}
                onDraft={onDraft}
                onLeave={onLeave}
                onDiscard={onDiscard}
                onRename={onRename}
                onEditingChange={onEditingChange}
                translation={translationView ? translations?.get(item.index) : undefined}
                translationView={translationView}
                translationLang={translationLang}
              />
            </li>
          );
        })}
      </ol>
      {showFollow && (
        <button
          type="button"
          className="btn btn-secondary follow-playing"
          data-testid="follow-playing"
          onClick={followNow}
        >
          <span aria-hidden>{(virtualizer.measurementsCache[active]?.start ?? 0) < window.scrollY ? "↑" : "↓"}</span>{" "}
          {t("transcript.followPlaying")}
        </button>
      )}
    </>
  );
});
