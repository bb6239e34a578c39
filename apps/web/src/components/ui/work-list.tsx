import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { TaskPhase } from "@/lib/task-phase.ts";
import { Button } from "./button.tsx";
import { Pagination } from "./pagination.tsx";
import { PhaseChip } from "./phase-chip.tsx";
import { EmptyState, ErrorState, Spinner } from "./states.tsx";
import "./work-list.css";

interface WorkListProps<Work> {
  /** the heading, and its id (the section is labelled by it) */
  title: ReactNode;
  titleId: string;
  /** the page of works: its loading and error states come from the query */
  works: { isPending: boolean; isError: boolean; data?: { list: Work[]; total: number }; refetch: () => unknown };
  empty: { icon: ReactNode; text: ReactNode };
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** one row (a WorkRow) */
  children: (work: Work) => ReactNode;
  /** what stays beside the list: its rename and delete dialogs */
  dialogs?: ReactNode;
  testId?: string;
}

/**
 * A page of the works a user made (text to speech, sung and converted songs), newest first: its
 * loading, error and empty states, one row a work, and the pages beyond the first.
 */
export function WorkList<Work>(props: WorkListProps<Work>) {
  const { works, page, pageSize } = props;
  return (
    <section className="work-list" aria-labelledby={props.titleId} data-testid={props.testId}>
      <h2 id={props.titleId} className="section-title">
        {props.title}
      </h2>
      {works.isPending ? (
        <Spinner />
      ) : works.isError || !works.data ? (
        <ErrorState onRetry={() => void works.refetch()} />
      ) : works.data.list.length === 0 ? (
        <EmptyState icon={props.empty.icon} text={props.empty.text} />
      ) : (
        <>
          <ul className="work-list-items">{works.data.list.map(props.children)}</ul>
          {works.data.total > pageSize && (
            <Pagination page={page} pageSize={pageSize} total={works.data.total} onPage={props.onPage} />
          )}
        </>
      )}
      {props.dialogs}
    </section>
  );
}

interface WorkRowProps {
  title: string;
  phase: TaskPhase;
  /** the status chip's words ('making 40%', 'done'…) */
  status: ReactNode;
  /** the meta line's values, each a <span> */
  meta: ReactNode;
  /** under the meta line: a progress bar, why it failed, a player of its own */
  note?: ReactNode;
  /** the buttons at the row's end (WorkActions, or a link elsewhere) */
  actions: ReactNode;
  /** the open player, across the row's width */
  player?: ReactNode;
  testId: string;
  /** the row's data-* attributes, as tests and styles find it */
  data?: Record<`data-${string}`, string | number>;
}

/** One work: its title and status, its meta line, and what can be done with it. */
export function WorkRow(props: WorkRowProps) {
  return (
    <li className="work-row" data-testid={props.testId} {...props.data}>
      <div className="work-row-main">
        <div className="work-row-title">
          <strong title={props.title}>{props.title}</strong>
          <PhaseChip phase={props.phase} testId="work-status">
            {props.status}
          </PhaseChip>
        </div>
        <div className="work-row-meta muted">{props.meta}</div>
        {props.note}
      </div>
      {props.actions}
      {props.player && <div className="work-row-player">{props.player}</div>}
    </li>
  );
}

interface WorkActionsProps {
  title: string;
  /** playable and downloadable only when done */
  done: boolean;
  /** the attachment's address; none: download stays off */
  downloadUrl?: string;
  playing: boolean;
  onTogglePlayer: () => void;
  onRename: () => void;
  onDelete: () => void;
}

/** Play (opens the row's player), download, rename and delete: each named after the work for screen readers. */
export function WorkActions({ title, done, downloadUrl, playing, ...on }: WorkActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="work-row-actions">
      <Button
        size="sm"
        variant={playing ? "primary" : "secondary"}
        disabled={!done}
        aria-expanded={playing}
        aria-label={playing ? t("work.closePlayerNamed", { title }) : t("work.playNamed", { title })}
        onClick={on.onTogglePlayer}
        data-testid="work-play"
      >
        <span aria-hidden>{playing ? "▾" : "▶"}</span>
        {playing ? t("work.closePlayer") : t("work.play")}
      </Button>
      {done && downloadUrl ? (
        <a
          className="btn btn-secondary btn-sm"
          href={downloadUrl}
          download
          aria-label={t("work.downloadNamed", { title })}
          data-testid="work-download"
        >
          {t("work.download")}
        </a>
      ) : (
        <Button size="sm" variant="secondary" disabled>
          {t("work.download")}
        </Button>
      )}
      <Button
        size="sm"
        variant="ghost"
        onClick={on.onRename}
        aria-label={t("work.renameNamed", { title })}
        data-testid="work-rename"
      >
        {t("work.rename")}
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="danger-text"
        onClick={on.onDelete}
        aria-label={t("work.deleteNamed", { title })}
        data-testid="work-delete"
      >
        {t("work.delete")}
      </Button>
    </div>
  );
}
