import * as Tabs from "@radix-ui/react-tabs";
import { type ReactNode, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "@/components/ui/states.tsx";
import type { Transcript } from "../api/get-text.ts";
import { useUpdatePara } from "../api/update-para.ts";
import { findMatches, matchesBySegment } from "../lib/search.ts";
import { segmentAt, speakerIndexes } from "../lib/segments.ts";
import { MediaPlayer } from "./media-player.tsx";
import { SegmentItem } from "./segment-item.tsx";
import { SummaryPanel } from "./summary-panel.tsx";
import { TranscriptSearch } from "./transcript-search.tsx";
import "./transcript-view.css";

function scrollIntoView(el: Element | null | undefined) {
  el?.scrollIntoView?.({ block: "nearest", behavior: "smooth" });
}

/**
 * The transcript with its player: the segment under the playhead is highlighted and kept in view
 * (not while a line is being edited); clicking a segment's time or text seeks there; search marks
 * every match and walks through them.
 */
export function TranscriptView({
  transcript,
  audioPath,
  video,
  downloadHref,
  hotWords,
}: {
  transcript: Transcript;
  audioPath: string;
  video: boolean;
  downloadHref: string;
  /** the hot words editor (the records feature's), handed in by the route */
  hotWords: ReactNode;
}) {
  const { t } = useTranslation();
  const { segments } = transcript;
  const media = useRef<HTMLMediaElement | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const editing = useRef(false);
  const [active, setActive] = useState(-1);
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const [current, setCurrent] = useState(0);
  const { mutateAsync: updatePara } = useUpdatePara(transcript.fileId);

  const speakers = useMemo(() => speakerIndexes(segments), [segments]);
  const speakerNames = useMemo(() => [...speakers.keys()], [speakers]);
  const matches = useMemo(() => findMatches(segments, deferredQuery), [segments, deferredQuery]);
  const groups = useMemo(() => matchesBySegment(matches), [matches]);
  const currentMatch = matches[current];

  const onTime = useCallback((ms: number) => setActive(segmentAt(segments, ms)), [segments]);
  const onSeek = useCallback(
    (index: number) => {
      const seg = segments[index];
      if (!seg) return;
      if (media.current) media.current.currentTime = seg.startTime / 1000;
      setActive(index);
    },
    [segments],
  );
  const onSaveText = useCallback((index: number, text: string) => updatePara({ index, text }), [updatePara]);
  const onRename = useCallback(
    (index: number, spkName: string, renameAll: boolean) => updatePara({ index, spkName, renameAll }),
    [updatePara],
  );
  const onEditingChange = useCallback((on: boolean) => {
    editing.current = on;
  }, []);

  useEffect(() => {
    if (active < 0 || editing.current) return;
    scrollIntoView(list.current?.querySelector(`[data-index="${active}"]`));
  }, [active]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at its first match
  useEffect(() => setCurrent(0), [deferredQuery]);
  useEffect(() => {
    if (currentMatch === undefined) return;
    scrollIntoView(list.current?.querySelector(`mark[data-match="${current}"]`));
  }, [currentMatch, current]);

  const move = (step: 1 | -1) => {
    if (matches.length === 0) return;
    setCurrent((c) => (c + step + matches.length) % matches.length);
  };

  return (
    <div className="detail-layout">
      <div className="detail-primary">
        <div className="player-bar">
          <MediaPlayer src={audioPath} video={video} mediaRef={media} onTime={onTime} downloadHref={downloadHref} />
        </div>
        <TranscriptSearch query={query} onQuery={setQuery} total={matches.length} current={current} onMove={move} />
        {segments.length === 0 ? (
          <EmptyState icon="…" text={t("transcript.noText")} />
        ) : (
          <>
            <p className="muted edit-hint">
              {t("transcript.segmentCount", { count: segments.length })} · {t("transcript.editHint")}
            </p>
            <ol className="segments" ref={list} data-current-match={current}>
              {segments.map((segment, index) => (
                <SegmentItem
                  // biome-ignore lint/suspicious/noArrayIndexKey: segments are addressed by index (update_para)
                  key={index}
                  segment={segment}
                  index={index}
                  speakerIndex={speakers.get(segment.spkName) ?? 0}
                  active={index === active}
                  matches={groups.get(index)}
                  currentMatch={currentMatch?.segment === index ? current : -1}
                  speakers={speakerNames}
                  onSeek={onSeek}
                  onSaveText={onSaveText}
                  onRename={onRename}
                  onEditingChange={onEditingChange}
                />
              ))}
            </ol>
          </>
        )}
      </div>
      <aside className="detail-side">
        <Tabs.Root defaultValue="summary">
          <Tabs.List className="tabs-list" aria-label={t("transcript.tabs")}>
            <Tabs.Trigger value="summary" className="tabs-trigger">
              {t("transcript.summary")}
            </Tabs.Trigger>
            <Tabs.Trigger value="hotWords" className="tabs-trigger">
              {t("transcript.hotWordsTab")}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="summary">
            <SummaryPanel fileId={transcript.fileId} fileName={transcript.fileName} abstracts={transcript.abstracts} />
          </Tabs.Content>
          <Tabs.Content value="hotWords">{hotWords}</Tabs.Content>
        </Tabs.Root>
      </aside>
    </div>
  );
}
