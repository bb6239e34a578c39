import type { VoiceWorkKind } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { Button } from "@/components/ui/button.tsx";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, ProgressBar, Spinner } from "@/components/ui/states.tsx";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import type { VoiceWork } from "../api/types.ts";
import { useVoiceWorks } from "../api/works.ts";
import { phaseOf } from "../lib/status.ts";
import { BeforeAfterPlayer } from "./before-after-player.tsx";
import { WorkDeleteDialog, WorkRenameDialog } from "./work-dialogs.tsx";

const PAGE_SIZE = 10;

/** My sung or converted songs, newest first: play, download, rename, delete. */
export function VoiceWorksList({ kind, onDeleted }: { kind: VoiceWorkKind; onDeleted?: (workId: number) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const works = useVoiceWorks(kind, page, PAGE_SIZE);
  const [open, setOpen] = useState<number | null>(null);
  const [renaming, setRenaming] = useState<VoiceWork | null>(null);
  const [deleting, setDeleting] = useState<VoiceWork | null>(null);
  const titleId = `voice-works-${kind}`;

  return (
    <section className="vk-works" aria-labelledby={titleId}>
      <h2 id={titleId} className="section-title">
        {t(`voiceKit.works.${kind}`)}
      </h2>
      {works.isPending ? (
        <Spinner />
      ) : works.isError ? (
        <ErrorState onRetry={() => works.refetch()} />
      ) : works.data.list.length === 0 ? (
        <EmptyState icon="♫" text={t(`voiceKit.noWorks.${kind}`)} />
      ) : (
        <>
          <ul className="vk-works-list">
            {works.data.list.map((work) => {
              const phase = phaseOf(work.status);
              const playing = open === work.workId && phase === "done";
              return (
                <li
                  key={work.workId}
                  className="vk-work"
                  data-testid="voice-work"
                  data-work-id={work.workId}
                  data-phase={phase}
                >
                  <div className="vk-work-main">
                    <div className="vk-work-title">
                      <strong title={work.title}>{work.title}</strong>
                      <span className={`vk-status vk-status-${phase}`} data-testid="work-status">
                        {phase === "running"
                          ? t(`voiceKit.making.${kind}`, { progress: work.progress })
                          : t(`voiceKit.phase.${phase}`)}
                      </span>
                    </div>
                    <div className="vk-work-meta muted">
                      <span>{work.voiceName}</span>
                      {kind === "sing" ? (
                        <span>{t("sing.keyTempoMeta", { key: signed(work.keyShift), tempo: work.tempo })}</span>
                      ) : (
                        <span>{t("convert.semitonesMeta", { value: signed(work.semitones) })}</span>
                      )}
                      {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
                      <span>{formatDateTime(work.createTime)}</span>
                    </div>
                    {phase === "running" && <ProgressBar value={work.progress} label={t("voiceKit.progressLabel")} />}
                    {phase === "failed" && <p className="error-text">{work.errorMsg || t("voiceKit.failed")}</p>}
                  </div>
                  <div className="vk-work-actions">
                    <Button
                      size="sm"
                      variant={playing ? "primary" : "secondary"}
                      disabled={phase !== "done"}
                      aria-expanded={playing}
                      aria-label={
                        playing
                          ? t("voiceKit.closePlayerNamed", { title: work.title })
                          : t("voiceKit.playNamed", { title: work.title })
                      }
                      onClick={() => setOpen(playing ? null : work.workId)}
                      data-testid="work-play"
                    >
                      <span aria-hidden>{playing ? "▾" : "▶"}</span>
                      {playing ? t("voiceKit.closePlayer") : t("voiceKit.play")}
                    </Button>
                    {phase === "done" && work.downloadUrl ? (
                      <a
                        className="btn btn-secondary btn-sm"
                        href={work.downloadUrl}
                        download
                        aria-label={t("voiceKit.downloadNamed", { title: work.title })}
                        data-testid="work-download"
                      >
                        {t("voiceKit.download")}
                      </a>
                    ) : (
                      <Button size="sm" variant="secondary" disabled>
                        {t("voiceKit.download")}
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setRenaming(work)}
                      aria-label={t("voiceKit.renameNamed", { title: work.title })}
                      data-testid="work-rename"
                    >
                      {t("voiceKit.rename")}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="danger-text"
                      onClick={() => setDeleting(work)}
                      aria-label={t("voiceKit.deleteNamed", { title: work.title })}
                      data-testid="work-delete"
                    >
                      {t("voiceKit.delete")}
                    </Button>
                  </div>
                  {playing && (
                    <div className="vk-work-player">
                      {kind === "convert" && work.originalUrl ? (
                        <BeforeAfterPlayer
                          before={work.originalUrl}
                          after={work.audioUrl}
                          title={work.title}
                          testId="work-player"
                        />
                      ) : (
                        <AudioPlayer
                          src={work.audioUrl}
                          title={work.title}
                          seconds={work.durationMs / 1000}
                          autoPlay
                          testId="work-player"
                        />
                      )}
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
      <WorkRenameDialog kind={kind} work={renaming} onClose={() => setRenaming(null)} />
      <WorkDeleteDialog
        kind={kind}
        work={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(workId) => {
          if (open === workId) setOpen(null);
          if (works.data && works.data.list.length === 1 && page > 1) setPage(page - 1);
          onDeleted?.(workId);
        }}
      />
    </section>
  );
}

export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
