import type { Segment } from "@yuelu/contracts";
import type { TimedWord } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { memo, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useWordUnderPlayhead } from "../hooks/use-playhead.ts";
import { type Match, splitByMatches } from "../lib/search.ts";
import { avatarGradient, avatarText, formatMs } from "../lib/segments.ts";
import { alignWords, withWords } from "../lib/word-times.ts";
import { EditableText } from "./editable-text.tsx";
import { SpeakerRenamePopover } from "./speaker-rename-popover.tsx";
import { SuggestedSpeaker } from "./suggested-speaker.tsx";
import "./segment-item.css";

export interface SegmentItemProps {
  segment: Segment;
  index: number;
  speakerIndex: number;
  active: boolean;
  /** this segment's search matches and the list position of the first */
  matches?: { first: number; list: Match[] };
  /** the current match, when it is in this segment (else -1: keeps the memo effective) */
  currentMatch: number;
  speakers: string[];
  /** play from the segment's start, or from `ms` (a word's start) */
  onSeek: (index: number, ms?: number) => void;
  /** the segment's measured words, once read (api/get-word-times.ts) */
  words?: readonly TimedWord[] | undefined;
  /** the line's text typed and not saved yet */
  draft?: string | undefined;
  /** typing in the line (a draft, saved after a pause), leaving it (saved now), Escape (dropped) */
  onDraft: (index: number, text: string) => void;
  onLeave: () => void;
  onDiscard: (index: number) => void;
  onRename: (index: number, name: string, renameAll: boolean) => Promise<unknown>;
  /** a line is being edited, or its speaker renamed (the list keeps the row mounted meanwhile) */
  onEditingChange: (index: number, editing: boolean) => void;
  /** this segment's translation, when one is shown: beside (or on phones under) the original, or instead of it */
  translation?: string;
  translationView?: "side" | "translation";
  /** the translation's language (its `lang`, for screen readers and fonts) */
  translationLang?: string;
}

/**
 * One segment: avatar (the name's first character, or a default label's number; one of 3 gradients by
 * speaker), speaker, time, text. While it is the playing segment, the word being spoken is marked (when its
 * words are timed and still tell its text; else the segment alone is).
 * Memoised: a row renders again only when its own segment, state, matches or spoken word change (the list's
 * callbacks are stable), never because another row or the search box did.
 */
export const SegmentItem = memo(function SegmentItem({
  segment,
  index,
  speakerIndex,
  active,
  matches,
  currentMatch,
  speakers,
  onSeek,
  words,
  draft,
  onDraft,
  onLeave,
  onDiscard,
  onRename,
  onEditingChange,
  translation,
  translationView,
  translationLang,
}: SegmentItemProps) {
  const { t } = useTranslation();
  const spans = useMemo(() => alignWords(segment.text, words), [segment.text, words]);
  const parts = useMemo(
    () => withWords(splitByMatches(segment.text, matches?.list ?? [], matches?.first ?? 0), spans),
    [segment.text, matches, spans],
  );
  const spokenWord = useWordUnderPlayhead(spans, active);
  return (
    <div
      className={clsx("segment", active && "active", currentMatch >= 0 && "has-current-match")}
      data-testid="segment"
      aria-current={active ? "true" : undefined}
      data-current-match={currentMatch >= 0 ? currentMatch : undefined}
    >
      <span className={`speaker-avatar gradient-${avatarGradient(speakerIndex)}`} aria-hidden data-testid="avatar">
        {avatarText(segment.spkName)}
      </span>
      <div className="segment-body">
        <div className="segment-head">
          <SpeakerRenamePopover
            name={segment.spkName}
            suggestions={speakers}
            onRename={(name, all) => onRename(index, name, all)}
            onOpenChange={(open) => onEditingChange(index, open)}
          >
            {segment.spkName}
          </SpeakerRenamePopover>
          {segment.suggested && segment.speaker !== undefined && <SuggestedSpeaker speaker={segment.speaker} />}
          <button
            type="button"
            className="segment-time"
            onClick={() => onSeek(index)}
            aria-label={t("transcript.jumpTo", { time: formatMs(segment.startTime) })}
          >
            {formatMs(segment.startTime)}
          </button>
        </div>
        {translation !== undefined && translationView === "translation" ? (
          <p className="segment-translation only" lang={translationLang} data-testid="segment-translation">
            {translation}
          </p>
        ) : (
          <div className={translation !== undefined ? "segment-texts side" : "segment-texts"}>
            <EditableText
              text={segment.text}
              draft={draft}
              parts={parts}
              spans={spans}
              spokenWord={spokenWord}
              currentMatch={currentMatch}
              label={t("transcript.editLabel", { index: index + 1 })}
              onSeek={(ms) => onSeek(index, ms)}
              onDraft={(text) => onDraft(index, text)}
              onLeave={onLeave}
              onDiscard={() => onDiscard(index)}
              onEditingChange={(on) => onEditingChange(index, on)}
            />
            {translation !== undefined && (
              <p className="segment-translation" lang={translationLang} data-testid="segment-translation">
                {translation}
              </p>
            )}
          </div>
        )}
      </div>
    </div>
  );
});
