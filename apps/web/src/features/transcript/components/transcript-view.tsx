import * as Tabs from "@radix-ui/react-tabs";
import type { Passage, TranslationNote } from "@yuelu/contracts";
import { type ReactNode, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "@/components/ui/states.tsx";
import { ApiError, handleApiError } from "@/lib/api-client.ts";
import { useNotes } from "../api/get-notes.ts";
import type { Transcript } from "../api/get-text.ts";
import { useDraftSaver } from "../hooks/use-draft-saver.ts";
import { usePageWordTimes } from "../hooks/use-page-word-times.ts";
import { PlayheadContext, usePlaybackFrames } from "../hooks/use-playhead.ts";
import { spaceTogglesPlayback } from "../lib/keys.ts";
import { isNoteDone, noteOf, translationTarget } from "../lib/notes.ts";
import { createPlayhead } from "../lib/playhead.ts";
import { findMatches, matchesBySegment } from "../lib/search.ts";
import { segmentAt, speakerIndexes } from "../lib/segments.ts";
import { AiOffNote } from "./ai-note.tsx";
import { AskPanel } from "./ask-panel.tsx";
import { AudioNotesLine } from "./audio-notes.tsx";
import { ChaptersPanel } from "./chapters-panel.tsx";
import { ClipButton } from "./clip-button.tsx";
import { LeaveGuard } from "./leave-guard.tsx";
import { MediaPlayer } from "./media-player.tsx";
import { SaveStatus } from "./save-status.tsx";
import { SegmentList } from "./segment-list.tsx";
import { SummaryPanel } from "./summary-panel.tsx";
import { TranscriptSearch } from "./transcript-search.tsx";
import { TranslationBar, type TranslationView } from "./translation-bar.tsx";
import "./transcript-view.css";

/** Plays, where the browser allows it (it may refuse without a gesture: the position stays). */
function play(el: HTMLMediaElement) {
  void el.play()?.catch(() => {});
}

/** The same array while the names are the same: a transcript edit must not re-render every row. */
function useStableNames(speakers: ReadonlyMap<string, number>): string[] {
  const key = [...speakers.keys()].join("\u0000");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the names
  return useMemo(() => [...speakers.keys()], [key]);
}

/**
 * The transcript with its player: the segment under the playhead is highlighted and followed (see
 * SegmentList), and in it the word being spoken, frame by frame (its words' times are read after the page
 * shows); clicking a segment's time, or a word, seeks there, and plays from there when paused; the
 * space bar plays and pauses (not while typing); search marks every match and walks through them. Edits
 * are saved as they are typed (hooks/use-draft-saver.ts), their state shown under the player. Built for 5-hour recordings (some 3 600 segments): the list is virtualised, the
 * matches are computed once per (deferred) query, and the rows' callbacks are stable, so typing in
 * the search box or in a line re-renders no more than the rows on screen.
 */
export function TranscriptView({
  transcript,
  audioPath,
  video,
  downloadHref,
  hotWords,
  startAt = null,
  initialQuery = "",
}: {
  transcript: Transcript;
  audioPath: string;
  video: boolean;
  downloadHref: string;
  /** the hot words editor (the records feature's), handed in by the route */
  hotWords: ReactNode;
  /** ms to play from on arrival (/detail?t=, from a search hit) */
  startAt?: number | null;
  /** words to mark on arrival (/detail?q=) */
  initialQuery?: string;
}) {
  const { t } = useTranslation();
  const { segments } = transcript;
  const media = useRef<HTMLMediaElement | null>(null);
  const playerBar = useRef<HTMLDivElement>(null);
  const segmentsRef = useRef(segments);
  segmentsRef.current = segments;
  const [active, setActiveState] = useState(-1);
  const activeRef = useRef(-1);
  /** (the playhead moves every frame: the page renders again only when the segment changes) */
  const setActive = useCallback((index: number) => {
    if (index === activeRef.current) return;
    activeRef.current = index;
    setActiveState(index);
  }, []);
  const [playhead] = useState(createPlayhead);
  const wordTimes = usePageWordTimes(transcript.fileId, transcript.version);
  const [followNonce, setFollowNonce] = useState(0);
  const [query, setQuery] = useState(initialQuery);
  const deferredQuery = useDeferredValue(query);
  const [current, setCurrent] = useState(0);
  const { saver, snapshot } = useDraftSaver(transcript);

  const speakers = useMemo(() => speakerIndexes(segments), [segments]);
  const speakerNames = useStableNames(speakers);
  const matches = useMemo(() => findMatches(segments, deferredQuery), [segments, deferredQuery]);
  const groups = useMemo(() => matchesBySegment(matches), [matches]);
  const match = matches[current];
  const matchSegment = match?.segment;
  const currentMatch = useMemo(
    () => (matchSegment === undefined ? undefined : { segment: matchSegment, position: current }),
    [matchSegment, current],
  );

  const onTime = useCallback(
    (ms: number) => {
      playhead.set(ms);
      setActive(segmentAt(segmentsRef.current, ms));
    },
    [playhead, setActive],
  );
  usePlaybackFrames(media, onTime, video);
  const onSeeked = useCallback(() => setFollowNonce((n) => n + 1), []);
  /** The playhead to segment `index` (or to `ms`, one of its words); `andPlay`: playing from there when it was paused. */
  const seekTo = useCallback(
    (index: number, andPlay: boolean, ms?: number) => {
      const seg = segmentsRef.current[index];
      if (!seg) return;
      const at = ms ?? seg.startTime;
      const el = media.current;
      if (el) {
        el.currentTime = at / 1000;
        if (andPlay && el.paused) play(el);
      }
      playhead.set(at);
      setActive(index);
    },
    [playhead, setActive],
  );
  /** A sentence clicked (its time or its text), or one of its words: from there, playing. */
  const onSeek = useCallback((index: number, ms?: number) => seekTo(index, true, ms), [seekTo]);
  const onDraft = useCallback((index: number, text: string) => saver.edit(index, text), [saver]);
  const flushNow = useCallback(() => saver.flush(), [saver]);
  const onLeave = useCallback(() => void flushNow(), [flushNow]);
  const onDiscard = useCallback((index: number) => saver.discard(index), [saver]);
  const onRename = useCallback(
    async (index: number, spkName: string, renameAll: boolean) => {
      try {
        await saver.rename({ index, spkName, renameAll });
      } catch (error) {
        // a conflict is told under the player; anything else as any refused call is
        if (error instanceof ApiError && saver.getSnapshot().state !== "conflict") handleApiError(error);
        throw error;
      }
    },
    [saver],
  );
  const reloadLatest = useCallback(() => {
    saver.reload().catch((error: unknown) => {
      if (error instanceof ApiError) handleApiError(error);
    });
  }, [saver]);

  // The space bar plays and pauses, unless it types or presses something (lib/keys.ts). On the document, so
  // it comes before the window's listeners (the list's "the person scrolled" among them).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== " " || e.repeat || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      const el = media.current;
      if (!el || !spaceTogglesPlayback(e.target)) return;
      e.preventDefault();
      if (el.paused) play(el);
      else el.pause();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  /**
   * At phone width the transcript and the notes (summary, chapters, ask, hot words) are two panes, one shown
   * at a time (the switcher under the player), so the notes are not a whole transcript's scroll away. Wider,
   * both show side by side and the pane changes nothing.
   */
  const [pane, setPane] = useState<"text" | "notes">("text");
  /** A chapter: seek to its segment, showing the transcript. */
  const seekFromNotes = useCallback(
    (index: number) => {
      setPane("text");
      seekTo(index, false);
    },
    [seekTo],
  );
  /** A to-do, a passage, a citation: play from its segment (the browser may refuse to play: the seek stays). */
  const onPlay = useCallback(
    (index: number) => {
      seekFromNotes(index);
      void media.current?.play()?.catch(() => {});
    },
    [seekFromNotes],
  );
  const passageTarget = useMemo(
    () => ({
      onPlay: (p: Passage) => {
        if (p.fileId === transcript.fileId) onPlay(p.segmentIndex);
      },
    }),
    [onPlay, transcript.fileId],
  );

  // the translation: into English for a Chinese transcript, Chinese otherwise; shown once done
  const notes = useNotes(transcript.fileId);
  const target = useMemo(
    () =>
      translationTarget(
        transcript.language,
        segments.slice(0, 30).map((s) => s.text),
      ),
    [transcript.language, segments],
  );
  const translationNote = noteOf(notes.data?.notes, "translation", target);
  const translated = isNoteDone(translationNote) ? (translationNote?.result as TranslationNote | null) : null;
  const translations = useMemo(
    () => (translated?.segments ? new Map(translated.segments.map((s) => [s.index, s.text])) : undefined),
    [translated],
  );
  const [view, setView] = useState<TranslationView>("original");
  const translationView = translations && view !== "original" ? view : undefined;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at its first match
  useEffect(() => setCurrent(0), [deferredQuery]);

  // Arriving from a search hit (?t=&q=): seek there, play when the browser allows it (autoplay
  // may be refused: the user then presses play), follow that segment and make the first match in
  // or after it the current one. Once per arrival, after the reset above.
  const arrived = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, with the first transcript and matches
  useEffect(() => {
    if (arrived.current || startAt === null) return;
    arrived.current = true;
    const index = segmentAt(segments, startAt);
    const el = media.current;
    if (el) {
      el.currentTime = startAt / 1000;
      void el.play()?.catch(() => {});
    }
    playhead.set(startAt);
    setActive(index);
    setFollowNonce((n) => n + 1);
    const first = matches.findIndex((m) => m.segment >= index);
    if (first >= 0) setCurrent(first);
  }, [startAt, matches]);

  const move = (step: 1 | -1) => {
    if (matches.length === 0) return;
    setCurrent((c) => (c + step + matches.length) % matches.length);
  };

  return (
    <PlayheadContext value={playhead}>
      <div className="detail-layout" data-pane={pane}>
        <div className="detail-primary">
          <div className="player-bar" ref={playerBar}>
            <MediaPlayer
              src={audioPath}
              video={video}
              mediaRef={media}
              onTime={onTime}
              onSeeked={onSeeked}
              downloadHref={downloadHref}
            />
            <SaveStatus
              snapshot={snapshot}
              onReload={reloadLatest}
              onRetry={onLeave}
              onDismissKept={() => saver.dismissKept()}
            />
            <LeaveGuard dirty={snapshot.dirty} flush={flushNow} />
          </div>
          <fieldset className="detail-panes" data-testid="detail-panes">
            <legend className="sr-only">{t("transcript.panes")}</legend>
            {(["text", "notes"] as const).map((value) => (
              <button
                key={value}
                type="button"
                className="detail-pane"
                aria-pressed={pane === value}
                onClick={() => setPane(value)}
              >
                {t(value === "text" ? "transcript.paneText" : "transcript.paneNotes")}
              </button>
            ))}
          </fieldset>
          <TranscriptSearch query={query} onQuery={setQuery} total={matches.length} current={current} onMove={move} />
          {segments.length > 0 && (
            <TranslationBar fileId={transcript.fileId} target={target} view={view} onView={setView} />
          )}
          {segments.length === 0 ? (
            <EmptyState icon="…" text={t("transcript.noText")} />
          ) : (
            <>
              <p className="muted edit-hint">
                {t("transcript.segmentCount", { count: segments.length })} · {t("transcript.editHint")}
                <AudioNotesLine audio={transcript.audio} />
              </p>
              <SegmentList
                segments={segments}
                speakers={speakers}
                speakerNames={speakerNames}
                active={active}
                followNonce={followNonce}
                groups={groups}
                currentMatch={currentMatch}
                stickyRef={playerBar}
                onSeek={onSeek}
                wordTimes={wordTimes}
                drafts={snapshot.drafts}
                onDraft={onDraft}
                onLeave={onLeave}
                onDiscard={onDiscard}
                onRename={onRename}
                translations={translations}
                translationView={translationView}
                translationLang={target}
              />
              {/* select words → Clip (docs/clips.md) */}
              <ClipButton fileId={transcript.fileId} segments={segments} />
            </>
          )}
        </div>
        <aside className="detail-side">
          {/* once for the page, with the notes (on a phone, in their pane: never above the transcript) */}
          {notes.data && !notes.data.llm.configured && <AiOffNote />}
          <Tabs.Root defaultValue="summary">
            <Tabs.List className="tabs-list" aria-label={t("transcript.tabs")}>
              <Tabs.Trigger value="summary" className="tabs-trigger">
                {t("transcript.summary")}
              </Tabs.Trigger>
              <Tabs.Trigger value="chapters" className="tabs-trigger">
                {t("notes.chaptersTab")}
              </Tabs.Trigger>
              <Tabs.Trigger value="ask" className="tabs-trigger">
                {t("notes.askTab")}
              </Tabs.Trigger>
              <Tabs.Trigger value="hotWords" className="tabs-trigger">
                {t("transcript.hotWordsTab")}
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="summary">
              <SummaryPanel
                fileId={transcript.fileId}
                fileName={transcript.fileName}
                abstracts={transcript.abstracts}
                onPlay={onPlay}
              />
            </Tabs.Content>
            <Tabs.Content value="chapters">
              <ChaptersPanel fileId={transcript.fileId} onSeek={seekFromNotes} />
            </Tabs.Content>
            <Tabs.Content value="ask">
              <AskPanel fileId={transcript.fileId} target={passageTarget} />
            </Tabs.Content>
            <Tabs.Content value="hotWords">{hotWords}</Tabs.Content>
          </Tabs.Root>
        </aside>
      </div>
    </PlayheadContext>
  );
}
