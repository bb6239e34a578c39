import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TextPart } from "../lib/search.ts";
import "./editable-text.css";

const AUTOSAVE_MS = 1500;

/**
 * A segment's text: shown with search marks; a click turns it into a textarea. It saves 1.5 s after
 * typing stops and when the box is left; Escape drops the change, Ctrl/⌘+Enter saves and leaves.
 */
export function EditableText({
  text,
  parts,
  currentMatch = -1,
  label,
  onSave,
  onStartEdit,
  onEditingChange,
}: {
  text: string;
  parts: TextPart[];
  /** the list position of the current search match (marked differently) */
  currentMatch?: number;
  label: string;
  onSave: (text: string) => Promise<unknown>;
  onStartEdit?: () => void;
  onEditingChange?: (editing: boolean) => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(text);
  const [state, setState] = useState<"idle" | "saving" | "saved">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastSent = useRef(text);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!editing) {
      setDraft(text);
      lastSent.current = text;
    }
  }, [text, editing]);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    const el = box.current;
    if (editing && el) {
      el.style.height = "auto";
      el.style.height = `${el.scrollHeight}px`;
    }
  });

  const save = async (value: string) => {
    clearTimeout(timer.current);
    if (value === lastSent.current) return;
    lastSent.current = value;
    setState("saving");
    try {
      await onSave(value);
      setState("saved");
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setState("idle"), 2500);
    } catch {
      lastSent.current = text;
      setState("idle");
    }
  };

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
        onClick={() => {
          onStartEdit?.();
          setMode(true);
        }}
      >
        {parts.map((p, i) =>
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
        {state !== "idle" && <span className="save-state">{t(`transcript.${state}`)}</span>}
      </button>
    );
  }
  return (
    <div className="segment-edit">
      <textarea
        ref={box}
        className="input segment-textarea"
        value={draft}
        aria-label={label}
        // biome-ignore lint/a11y/noAutofocus: the click asked for this box
        autoFocus
        onChange={(e) => {
          const value = e.target.value;
          setDraft(value);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => void save(value), AUTOSAVE_MS);
        }}
        onBlur={() => {
          void save(draft);
          setMode(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            clearTimeout(timer.current);
            setDraft(text);
            lastSent.current = text;
            setMode(false);
          } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.blur();
          }
        }}
      />
      {state === "saving" && <span className="save-state">{t("transcript.saving")}</span>}
    </div>
  );
}
