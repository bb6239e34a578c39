import type { Passage } from "@yuelu/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { formatMs } from "../lib/segments.ts";

/** What a passage (or a citation) leads to: its segment played on this page, or /detail at it. */
export interface PassageTarget {
  onPlay?: (passage: Passage) => void;
  hrefOf?: (passage: Passage) => string;
}

/** A button (or link) to a passage: plays it on /detail, opens its record at it elsewhere. */
export function PassageButton({
  passage,
  target,
  className,
  label,
  children,
}: {
  passage: Passage;
  target: PassageTarget;
  className: string;
  label: string;
  children: ReactNode;
}) {
  if (target.hrefOf)
    return (
      <Link className={className} to={target.hrefOf(passage)} aria-label={label}>
        {children}
      </Link>
    );
  return (
    <button type="button" className={className} onClick={() => target.onPlay?.(passage)} aria-label={label}>
      {children}
    </button>
  );
}

/** A passage's head: its time (the control), speaker, and across records the record's name. */
export function PassageTime({ passage, target, across }: { passage: Passage; target: PassageTarget; across: boolean }) {
  const { t } = useTranslation();
  const time = formatMs(passage.startTime);
  return (
    <div className="passage-head">
      <PassageButton
        passage={passage}
        target={target}
        className="passage-time"
        label={t("notes.todoPlay", { time }) + (across ? ` · ${passage.fileName}` : "")}
      >
        {time}
      </PassageButton>
      <span className="passage-speaker">{passage.speaker}</span>
      {across && <span className="muted passage-file">{passage.fileName}</span>}
    </div>
  );
}
