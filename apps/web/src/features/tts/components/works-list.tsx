import type { TtsWork } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { WorkActions, WorkList, WorkRow } from "@/components/ui/work-list.tsx";
import { useWorkListState } from "@/hooks/use-work-list.ts";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { taskPhase } from "@/lib/task-phase.ts";
import { useWorks } from "../api/get-works.ts";
import { WorkDeleteDialog } from "./work-delete-dialog.tsx";
import { WorkRenameDialog } from "./work-rename-dialog.tsx";

const PAGE_SIZE = 10;

/** 'My works': every synthesis, newest first, to play, download, rename or delete. */
export function WorksList({ onDeleted }: { onDeleted?: (taskId: number) => void }) {
  const { t } = useTranslation();
  const list = useWorkListState<TtsWork>();
  const works = useWorks(list.page, PAGE_SIZE);

  const row = (work: TtsWork) => {
    const phase = taskPhase(work.status);
    const playing = list.playing(work.taskId, phase === "done");
    return (
      <WorkRow
        key={work.taskId}
        title={work.title}
        phase={phase}
        status={phase === "running" ? t("tts.running", { progress: work.progress }) : t(`tts.phase.${phase}`)}
        meta={
          <>
            <span>{work.voiceName}</span>
            <span>{t("tts.chars", { count: work.chars })}</span>
            {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
            <span>{work.format.toUpperCase()}</span>
            <span>{formatDateTime(work.createTime)}</span>
          </>
        }
        note={phase === "failed" && work.errorMsg && <p className="error-text">{work.errorMsg}</p>}
        actions={
          <WorkActions
            title={work.title}
            done={phase === "done"}
            downloadUrl={work.downloadUrl}
            playing={playing}
            onTogglePlayer={() => list.togglePlayer(work.taskId)}
            onRename={() => list.setRenaming(work)}
            onDelete={() => list.setDeleting(work)}
          />
        }
        player={
          playing && (
            <AudioPlayer
              src={work.audioUrl}
              title={work.title}
              seconds={work.durationMs / 1000}
              autoPlay
              testId="work-player"
            />
          )
        }
        testId="work-row"
        data={{ "data-task-id": work.taskId }}
      />
    );
  };

  return (
    <WorkList
      title={t("tts.works")}
      titleId="tts-works-title"
      works={works}
      empty={{ icon: "♪", text: t("tts.noWorks") }}
      page={list.page}
      pageSize={PAGE_SIZE}
      onPage={list.setPage}
      dialogs={
        <>
          <WorkRenameDialog work={list.renaming} onClose={() => list.setRenaming(null)} />
          <WorkDeleteDialog
            work={list.deleting}
            onClose={() => list.setDeleting(null)}
            onDeleted={(taskId) => {
              list.removed(taskId, works.data?.list.length ?? 0);
              onDeleted?.(taskId);
            }}
          />
        </>
      }
    >
      {row}
    </WorkList>
  );
}
