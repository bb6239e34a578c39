import { type MouseEvent, useEffect, useRef, useState } from "react";
import type { ShownPart, TimedSpan } from "../lib/word-times.ts";
import "./editable-text.css";

/**
 * A segment's text: shown with search marks and, where its words are timed, each word its own span — the one
 * being spoken marked (`spokenWord`), a click on one playing from it (`onSeek` with its start; elsewhere on
 * the line, from the line's start). Editing starts with a double-click, Enter on the focused text, or the
 * line's ✎ button; it turns into a textarea. Every keystroke is a draft (`onDraft`: the page saves it a
 * moment after typing stops, lib/autosave.ts); leaving the box saves at once (`onLeave`); Escape drops what
 * is not saved (`onDiscard`); Ctrl/⌘+Enter leaves. A line with an unsaved draft shows the draft, not the
 * saved text. Selecting words with the mouse (for a clip) neither plays nor edits.
 */
export function EditableText({
  text,
  draft,
  parts,
  spans = null,
  spokenWord = -1,
  currentMatch = -1,
  label,
  onSeek,
  onDraft,
  onLeave,
  onDiscard,
  onEditingChange,
}: {
  text: string;
  /** the text typed and not saved yet */
  draft?: string | undefined;
  parts: ShownPart[];
  /** the words' places and times (null: not timed, or no longer this text's) */
  spans?: readonly TimedSpan[] | null;
  /** the index of the word under the playhead, or -1 */
  spokenWord?: number;
  /** the list position of the current search match (marked differently) */
  currentMatch?: number;
  label: string;
  /** play from `ms` (a word's start), or from the line's start when undefined */
  onSeek?: (ms?: number) => void;
  onDraft: (text: string) => void;
  onLeave: () => void;
  onDiscard: () => void;
  onEditingChange?: (editing: boolean) => void;
}) {
  const shown = draft ?? text;
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(shown);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!editing) setValue(shown);
  }, [shown, editing]);
  useEffect(() => {
    const el = box.current;
    if (editing && el) {
      el.style.height = "auto";
      el.style.height = `${el.scrollHeight}px`;
    }
  });

  const setMode = (on: boolean) => {
    setEditing(on);
    onEditingChange?.(on);
  };
  const startEdit = () => {
    setValue(shown);
    setMode(true);
  };
  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    // activated without a pointer (Enter, a screen reader): that asks to edit
    if (e.detail === 0) return startEdit();
    // a press that selected words (to clip them) is no click on a word
    const selection = document.getSelection();
    const here = e.currentTarget;
    if (
      selection &&
      !selection.isCollapsed &&
      (here.contains(selection.anchorNode) || here.contains(selection.focusNode))
    )
      return;
    const word = e.target instanceof Element ? e.target.closest<HTMLElement>("[data-start]") : null;
    onSeek?.(word ? Number(word.dataset.start) : undefined);
  };

  if (!editing) {
    return (
      <div className="segment-text-line">
        <button
          type="button"
          className="segment-text"
          data-testid="segment-text"
          data-unsaved={draft !== undefined ? "true" : undefined}
          onClick={onClick}
          onDoubleClick={startEdit}
        >
          {draft !== undefined
            ? draft
            : parts.map((p, i) => {
                const pieces = p.pieces.map((w, j) =>
                  w.word === undefined || !spans?.[w.word] ? (
                    w.text
                  ) : (
                    <span
                      // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positional
                      key={j}
                      className={w.word === spokenWord ? "word spoken" : "word"}
                      data-word={w.word}
                      data-start={spans[w.word]!.startTime}
                    >
                      {w.text}
                    </span>
                  ),
                );
                return p.match === undefined ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
                  <span key={i}>{pieces}</span>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
                  <mark key={i} data-match={p.match} className={p.match === currentMatch ? "current" : undefined}>
                    {pieces}
                  </mark>
                );
              })}
        </button>
        <button
          type="button"
          className="segment-edit-button"
          data-testid="segment-edit"
          aria-label={label}
          title={label}
          onClick={startEdit}
        >
          <span aria-hidden>✎</span>
        </button>
      </div>
    );
  }
  return (
    <div className="segment-edit">
      <textarea
        ref={box}
        className="input segment-textarea"
        value={value}
        aria-label={label}
        // biome-ignore lint/a11y/noAutofocus: the person asked for this box
        autoFocus
        onChange={(e) => {
          setValue(e.target.value);
          onDraft(e.target.value);
        }}
        onBlur={() => {
          onLeave();
          setMode(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            onDiscard();
            setMode(false);
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.blur();
          }
        }}
      />
    </div>
  );
}
