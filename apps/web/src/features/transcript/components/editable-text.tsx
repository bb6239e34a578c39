import { useEffect, useRef, useState } from "react";
import type { TextPart } from "../lib/search.ts";
import "./editable-text.css";

/**
 * A segment's text: shown with search marks; a click turns it into a textarea. Every keystroke is a draft
 * (`onDraft`: the page saves it a moment after typing stops, lib/autosave.ts); leaving the box saves at once
 * (`onLeave`); Escape drops what is not saved (`onDiscard`); Ctrl/⌘+Enter leaves. A line with an unsaved
 * draft shows the draft, not the saved text.
 */
export function EditableText({
  text,
  draft,
  parts,
  currentMatch = -1,
  label,
  onDraft,
  onLeave,
  onDiscard,
  onStartEdit,
  onEditingChange,
}: {
  text: string;
  /** the text typed and not saved yet */
  draft?: string | undefined;
  parts: TextPart[];
  /** the list position of the current search match (marked differently) */
  currentMatch?: number;
  label: string;
  onDraft: (text: string) => void;
  onLeave: () => void;
  onDiscard: () => void;
  onStartEdit?: () => void;
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

  if (!editing) {
    return (
      <button
        type="button"
        className="segment-text"
        data-testid="segment-text"
        data-unsaved={draft !== undefined ? "true" : undefined}
        onClick={() => {
          onStartEdit?.();
          setValue(shown);
          setMode(true);
        }}
      >
        {draft !== undefined
          ? draft
          : parts.map((p, i) =>
              p.match === undefined ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
                <span key={i}>{p.text}</span>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
                <mark key={i} data-match={p.match} className={p.match === currentMatch ? "current" : undefined}>
                  {p.text}
                </mark>
              ),
            )}
      </button>
    );
  }
  return (
    <div className="segment-edit">
      <textarea
        ref={box}
        className="input segment-textarea"
        value={value}
        aria-label={label}
        // biome-ignore lint/a11y/noAutofocus: the click asked for this box
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
