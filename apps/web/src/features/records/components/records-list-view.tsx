import * as Popover from "@radix-ui/react-popover";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "../../../components/ui/button.tsx";
import { EmptyState, ErrorState, Spinner } from "../../../components/ui/states.tsx";
import { paths } from "../../../config/paths.ts";
import { formatDateTime, formatDuration, formatSize } from "../../../lib/format.ts";
import { audioDownloadUrl, batchDownloadUrl, startDownload } from "../api/download-records.ts";
import { progressById, useProgress } from "../api/get-progress.ts";
import { type FolderFilter, type RecordsQuery, useRecords } from "../api/get-records.ts";
import { recordKeys } from "../api/keys.ts";
import type { AudioRecord } from "../api/types.ts";
import { useSelection } from "../hooks/use-selection.ts";
import { detailHref } from "../lib/links.ts";
import { canTranscribe, FileStatus, isInProgress, isSettled } from "../lib/status.ts";
import { FolderSidebar } from "./folder-sidebar.tsx";
import { Pagination } from "./pagination.tsx";
import { RecordDeleteDialog } from "./record-delete-dialog.tsx";
import { RecordMoveDialog } from "./record-move-dialog.tsx";
import { RecordRenameDialog } from "./record-rename-dialog.tsx";
import { RecordTranscribeDialog } from "./record-transcribe-dialog.tsx";
import { SelectCheckbox } from "./select-checkbox.tsx";
import { StatusBadge } from "./status-badge.tsx";

export const PAGE_SIZE = 20;
/** The status filter; -1 means "no filter" to the API, so failed records cannot be picked out this way. */
const STATUS_FILTERS: [number, string][] = [
  [-1, "records.allStatus"],
  [FileStatus.Waiting, "status.waiting"],
  [FileStatus.InQueue, "status.queued"],
  [FileStatus.Transcribing, "status.transcribingAny"],
  [FileStatus.Complete, "status.complete"],
];

type DialogState =
  | { kind: "rename"; records: [AudioRecord] }
  | { kind: "move" | "delete" | "transcribe"; records: AudioRecord[] }
  | null;

/**
 * My records: folder filter, name search, status filter, paging; per-row and batch actions. Rows
 * in queue or transcribing have their progress polled every 2 s and patched in place; when one
 * settles the page is fetched again (its updateTime and status change).
 */
export function RecordsListView() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [folder, setFolder] = useState<FolderFilter>({ kind: "all" });
  const [search, setSearch] = useState("");
  const [fileName, setFileName] = useState("");
  const [fileStatus, setFileStatus] = useState(-1);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<DialogState>(null);

  useEffect(() => {
    const timer = setTimeout(() => setFileName(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts on page 1
  useEffect(() => setPage(1), [folder, fileName, fileStatus]);

  const query: RecordsQuery = { page, pageSize: PAGE_SIZE, fileName, folder, fileStatus };
  const list = useRecords(query);
  const listed = list.data?.records ?? [];

  const watching = listed.filter((r) => isInProgress(r.fileStatus)).map((r) => r.fileId);
  const progress = useProgress(watching);
  const byId = useMemo(() => progressById(progress.data), [progress.data]);
  const rows = listed.map((r) => {
    const p = isInProgress(r.fileStatus) ? byId.get(r.fileId) : undefined;
    return p && p.fileStatus !== FileStatus.NotFound ? { ...r, fileStatus: p.fileStatus, progress: p.progress } : r;
  });
  const settled = (progress.data ?? []).filter((p) => isSettled(p.fileStatus)).length;
  useEffect(() => {
    if (settled > 0) void client.invalidateQueries({ queryKey: recordKeys.lists() });
  }, [settled, client]);

  const selection = useSelection(rows.map((r) => r.fileId));
  const { clear } = selection;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another page or filter starts unselected
  useEffect(() => clear(), [page, folder, fileName, fileStatus, clear]);
  const selectedRows = rows.filter((r) => selection.has(r.fileId));
  const filtered = fileName !== "" || fileStatus !== -1 || folder.kind !== "all";
  const close = () => setDialog(null);

  return (
    <div className="records-layout">
      <FolderSidebar value={folder} onChange={setFolder} />
      <div className="records-main">
        <div className="records-toolbar">
          <input
            className="input search-input"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={t("records.searchPlaceholder")}
            aria-label={t("records.search")}
          />
          <select
            className="input select"
            value={fileStatus}
            onChange={(e) => setFileStatus(Number(e.target.value))}
            aria-label={t("records.statusFilter")}
          >
            {STATUS_FILTERS.map(([value, key]) => (
              <option key={value} value={value}>
                {t(key)}
              </option>
            ))}
          </select>
        </div>

        {selectedRows.length > 0 && (
          <div className="batch-bar" data-testid="batch-bar">
            <span>{t("records.selected", { count: selectedRows.length })}</span>
            <Button size="sm" onClick={() => setDialog({ kind: "transcribe", records: selectedRows })}>
              {t("records.transcribe")}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: "move", records: selectedRows })}>
              {t("records.move")}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => startDownload(batchDownloadUrl(selectedRows.map((r) => r.fileId)))}
            >
              {t("records.downloadZip")}
            </Button>
            <Button size="sm" variant="danger" onClick={() => setDialog({ kind: "delete", records: selectedRows })}>
              {t("records.delete")}
            </Button>
            <Button size="sm" variant="ghost" onClick={selection.clear}>
              {t("records.clearSelection")}
            </Button>
          </div>
        )}

        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <ErrorState onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyState icon="⌕" text={t("records.noMatch")} />
          ) : (
            <EmptyState
              icon="≣"
              text={t("empty.records")}
              action={
                <Link className="btn btn-primary" to={paths.transaudio}>
                  {t("common.uploadNow")}
                </Link>
              }
            />
          )
        ) : (
          <>
            <table className="records-table" data-testid="records-table">
              <thead>
                <tr>
                  <th className="col-check">
                    <SelectCheckbox
                      checked={selection.all}
                      indeterminate={selection.some}
                      label={t("records.selectAll")}
                      onChange={selection.toggleAll}
                    />
                  </th>
                  <th>{t("records.name")}</th>
                  <th>{t("records.duration")}</th>
                  <th>{t("records.size")}</th>
                  <th>{t("records.updateTime")}</th>
                  <th>{t("records.status")}</th>
                  <th className="col-actions">{t("records.actions")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr
                    key={r.fileId}
                    data-testid={`record-${r.fileId}`}
                    className={selection.has(r.fileId) ? "selected" : undefined}
                  >
                    <td className="col-check">
                      <SelectCheckbox
                        checked={selection.has(r.fileId)}
                        label={t("records.select", { name: r.fileName })}
                        onChange={(on) => selection.toggle(r.fileId, on)}
                      />
                    </td>
                    <td className="col-name">
                      <Link to={detailHref(r)} title={r.fileName}>
                        {r.fileName}
                      </Link>
                    </td>
                    <td className="col-meta" data-label={t("records.duration")}>
                      {formatDuration(r.timeLen)}
                    </td>
                    <td className="col-meta" data-label={t("records.size")}>
                      {formatSize(r.fileSize)}
                    </td>
                    <td className="col-meta" data-label={t("records.updateTime")}>
                      {formatDateTime(r.updateTime)}
                    </td>
                    <td className="col-status">
                      <StatusBadge fileStatus={r.fileStatus} progress={r.progress} />
                    </td>
                    <td className="col-actions">
                      <RowActions record={r} onDialog={setDialog} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pagination page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} />
          </>
        )}
      </div>

      <RecordRenameDialog record={dialog?.kind === "rename" ? dialog.records[0] : null} onClose={close} />
      <RecordMoveDialog
        records={dialog?.kind === "move" ? dialog.records : null}
        onClose={close}
        onDone={selection.clear}
      />
      <RecordDeleteDialog
        records={dialog?.kind === "delete" ? dialog.records : null}
        onClose={close}
        onDone={selection.clear}
      />
      <RecordTranscribeDialog
        records={dialog?.kind === "transcribe" ? dialog.records : null}
        onClose={close}
        onDone={selection.clear}
      />
    </div>
  );
}

function RowActions({ record, onDialog }: { record: AudioRecord; onDialog: (d: DialogState) => void }) {
  const { t } = useTranslation();
  return (
    <div className="row-actions">
      {canTranscribe(record.fileStatus) && (
        <Button size="sm" onClick={() => onDialog({ kind: "transcribe", records: [record] })}>
          {t("records.transcribe")}
        </Button>
      )}
      <Link className="btn btn-secondary btn-sm" to={detailHref(record)}>
        {t("records.open")}
      </Link>
      <Popover.Root>
        <Popover.Trigger className="btn btn-ghost btn-sm" aria-label={`${t("records.more")} ${record.fileName}`}>
          ⋯
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover menu-popover" align="end" sideOffset={4}>
            <Popover.Close className="menu-item" onClick={() => onDialog({ kind: "rename", records: [record] })}>
              {t("records.rename")}
            </Popover.Close>
            <Popover.Close className="menu-item" onClick={() => onDialog({ kind: "move", records: [record] })}>
              {t("records.move")}
            </Popover.Close>
            <Popover.Close
              className="menu-item"
              onClick={() => startDownload(audioDownloadUrl(record.fileId), record.fileName)}
            >
              {t("records.download")}
            </Popover.Close>
            <Popover.Close className="menu-item danger" onClick={() => onDialog({ kind: "delete", records: [record] })}>
              {t("records.delete")}
            </Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  );
}
