import type { TtsWork } from "@yuelu/contracts";
import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { useWorks } from "../api/get-works.ts";
import { taskPhase } from "../lib/task-status.ts";
import { WorkDeleteDialog } from "./work-delete-dialog.tsx";
import { WorkRenameDialog } from "./work-rename-dialog.tsx";
import "./works-list.css";

const PAGE_SIZE = 10;

/** 'My works': every synthesis, newest first, to play, download, rename or delete. */
export function WorksList({ onDeleted }: { onDeleted?: (taskId: number) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const works = useWorks(page, PAGE_SIZE);
  const [open, setOpen] = useState<number | null>(null);
  const [renaming, setRenaming] = useState<TtsWork | null>(null);
  const [deleting, setDeleting] = useState<TtsWork | null>(null);

  return (
    <section className="tts-works" aria-labelledby="tts-works-title">
      <h2 id="tts-works-title" className="section-title">
        {t("tts.works")}
      </h2>
      {works.isPending ? (
        <Spinner />
      ) : works.isError ? (
        <ErrorState onRetry={() => works.refetch()} />
      ) : works.data.list.length === 0 ? (
        <EmptyState icon="♪" text={t("tts.noWorks")} />
      ) : (
        <>
          <ul className="tts-works-list">
            {works.data.list.map((work) => {
              const phase = taskPhase(work.status);
              const playing = open === work.taskId && phase === "done";
              return (
                <li key={work.taskId} className="tts-work" data-testid="work-row" data-task-id={work.taskId}>
                  <div className="tts-work-main">
                    <div className="tts-work-title">
                      <strong title={work.title}>{work.title}</strong>
                      <span className={clsx("tts-work-status", `tts-work-${phase}`)} data-testid="work-status">
                        {phase === "running" ? t("tts.running", { progress: work.progress }) : t(`tts.phase.${phase}`)}
                      </span>
                    </div>
                    <div className="tts-work-meta muted">
                      <span>{work.voiceName}</span>
                      <span>{t("tts.chars", { count: work.chars })}</span>
                      {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
                      <span>{work.format.toUpperCase()}</span>
                      <span>{formatDateTime(work.createTime)}</span>
                    </div>
                    {phase === "failed" && work.errorMsg && <p className="error-text">{work.errorMsg}</p>}
                  </div>
                  <div className="tts-work-actions">
                    <Button
                      size="sm"
                      variant={playing ? "primary" : "secondary"}
                      disabled={phase !== "done"}
                      aria-expanded={playing}
                      aria-label={
                        playing
                          ? t("tts.closePlayerNamed", { title: work.title })
                          : t("tts.playNamed", { title: work.title })
                      }
                      onClick={() => setOpen(playing ? null : work.taskId)}
                      data-testid="work-play"
                    >
                      <span aria-hidden>{playing ? "▾" : "▶"}</span>
                      {playing ? t("tts.closePlayer") : t("tts.play")}
                    </Button>
                    {phase === "done" ? (
                      <a
                        className="btn btn-secondary btn-sm"
                        href={work.downloadUrl}
                        download
                        aria-label={t("tts.downloadNamed", { title: work.title })}
                        data-testid="work-download"
                      >
                        {t("tts.download")}
                      </a>
                    ) : (
                      <Button size="sm" variant="secondary" disabled>
                        {t("tts.download")}
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setRenaming(work)}
                      aria-label={t("tts.renameNamed", { title: work.title })}
                      data-testid="work-rename"
                    >
                      {t("tts.rename")}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="danger-text"
                      onClick={() => setDeleting(work)}
                      aria-label={t("tts.deleteNamed", { title: work.title })}
                      data-testid="work-delete"
                    >
                      {t("tts.delete")}
                    </Button>
                  </div>
                  {playing && (
                    <div className="tts-work-player">
                      <AudioPlayer
                        src={work.audioUrl}
                        title={work.title}
                        seconds={work.durationMs / 1000}
                        autoPlay
                        testId="work-player"
                      />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
          {works.data.total > PAGE_SIZE && (
            <Pagination page={page} pageSize={PAGE_SIZE} total={works.data.total} onPage={setPage} />
          )}
        </>
      )}
      <WorkRenameDialog work={renaming} onClose={() => setRenaming(null)} />
      <WorkDeleteDialog
        work={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(taskId) => {
          if (open === taskId) setOpen(null);
          // the last work of a later page: back one page
          if (works.data && works.data.list.length === 1 && page > 1) setPage(page - 1);
          onDeleted?.(taskId);
        }}
      />
    </section>
  );
}
