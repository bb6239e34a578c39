import type { VoiceWorkKind } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { WorkActions, WorkList, WorkRow } from "@/components/ui/work-list.tsx";
import { useWorkListState } from "@/hooks/use-work-list.ts";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { taskPhase } from "@/lib/task-phase.ts";
import type { VoiceWork } from "../api/types.ts";
import { useVoiceWorks } from "../api/works.ts";
import { BeforeAfterPlayer } from "./before-after-player.tsx";
import { WorkDeleteDialog, WorkRenameDialog } from "./work-dialogs.tsx";

const PAGE_SIZE = 10;

/** My sung or converted songs, newest first: play, download, rename, delete. */
export function VoiceWorksList({ kind, onDeleted }: { kind: VoiceWorkKind; onDeleted?: (workId: number) => void }) {
  const { t } = useTranslation();
  const list = useWorkListState<VoiceWork>();
  const works = useVoiceWorks(kind, list.page, PAGE_SIZE);

  const row = (work: VoiceWork) => {
    const phase = taskPhase(work.status);
    const playing = list.playing(work.workId, phase === "done");
    return (
      <WorkRow
        key={work.workId}
        title={work.title}
        phase={phase}
        status={
          phase === "running" ? t(`voiceKit.making.${kind}`, { progress: work.progress }) : t(`voiceKit.phase.${phase}`)
        }
        meta={
          <>
            <span>{work.voiceName}</span>
            {kind === "sing" ? (
              <span>{t("sing.keyTempoMeta", { key: signed(work.keyShift), tempo: work.tempo })}</span>
            ) : (
              <span>{t("convert.semitonesMeta", { value: signed(work.semitones) })}</span>
            )}
            {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
            <span>{formatDateTime(work.createTime)}</span>
          </>
        }
        note={
          <>
            {phase === "running" && <ProgressBar value={work.progress} label={t("voiceKit.progressLabel")} />}
            {phase === "failed" && <p className="error-text">{work.errorMsg || t("voiceKit.failed")}</p>}
          </>
        }
        actions={
          <WorkActions
            title={work.title}
            done={phase === "done"}
            downloadUrl={work.downloadUrl}
            playing={playing}
            onTogglePlayer={() => list.togglePlayer(work.workId)}
            onRename={() => list.setRenaming(work)}
            onDelete={() => list.setDeleting(work)}
          />
        }
        player={playing && <WorkPlayer kind={kind} work={work} />}
        testId="voice-work"
        data={{ "data-work-id": work.workId, "data-phase": phase }}
      />
    );
  };

  return (
    <WorkList
      title={t(`voiceKit.works.${kind}`)}
      titleId={`voice-works-${kind}`}
      works={works}
      empty={{ icon: "♫", text: t(`voiceKit.noWorks.${kind}`) }}
      page={list.page}
      pageSize={PAGE_SIZE}
      onPage={list.setPage}
      dialogs={
        <>
          <WorkRenameDialog kind={kind} work={list.renaming} onClose={() => list.setRenaming(null)} />
          <WorkDeleteDialog
            kind={kind}
            work={list.deleting}
            onClose={() => list.setDeleting(null)}
            onDeleted={(workId) => {
              list.removed(workId, works.data?.list.length ?? 0);
              onDeleted?.(workId);
            }}
          />
        </>
      }
    >
      {row}
    </WorkList>
  );
}

/** A converted song plays beside its original; a sung one on its own. */
function WorkPlayer({ kind, work }: { kind: VoiceWorkKind; work: VoiceWork }) {
  if (kind === "convert" && work.originalUrl) {
    return (
      <BeforeAfterPlayer before={work.originalUrl} after={work.audioUrl} title={work.title} testId="work-player" />
    );
  }
  return (
    <AudioPlayer
      src={work.audioUrl}
      title={work.title}
      seconds={work.durationMs / 1000}
      autoPlay
      testId="work-player"
    />
  );
}

export const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
