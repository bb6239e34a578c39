import { useQueryClient } from "@tanstack/react-query";
import type { AudioRecord } from "@yuelu/contracts";
import { FileStatus, RECORD_SORT_FIELDS, SORT_ORDERS } from "@yuelu/contracts/constants";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { useSelection } from "@/hooks/use-selection.ts";
import { progressById, useTranscriptionProgress } from "@/hooks/use-transcription-progress.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isInProgress, isSettled } from "@/utils/file-status.ts";
import { DEFAULT_SORT, type FolderFilter, type RecordSort, type RecordsQuery, useRecords } from "../api/get-records.ts";
import { BatchDownloadDialog } from "./batch-download-dialog.tsx";
import { FolderSidebar } from "./folder-sidebar.tsx";
import { createdAt, metaColumns, nameColumn, statusColumn, timeColumn } from "./record-columns.tsx";
import { RecordDeleteDialog } from "./record-delete-dialog.tsx";
import { RecordMoveDialog } from "./record-move-dialog.tsx";
import { RecordRenameDialog } from "./record-rename-dialog.tsx";
import { type RecordDialog, RecordRowActions } from "./record-row-actions.tsx";
import { RecordTranscribeDialog } from "./record-transcribe-dialog.tsx";
import { ariaSort, SortHeader } from "./sort-header.tsx";
import "./records-list-view.css";

export const PAGE_SIZE = 20;
/** The status filter; -1 means "no filter" to the API, so failed records cannot be picked out this way. */
const STATUS_FILTERS: [number, string][] = [
  [-1, "records.allStatus"],
  [FileStatus.Waiting, "status.waiting"],
  [FileStatus.InQueue, "status.queued"],
  [FileStatus.Transcribing, "status.transcribingAny"],
  [FileStatus.Complete, "status.complete"],
];

/** The sorts a phone offers in a list (its table has no headers to click): every field, both ways. */
const SORTS = RECORD_SORT_FIELDS.flatMap((by) => SORT_ORDERS.map((order) => ({ by, order })));

/**
 * My records: folder filter, name search, status filter, paging; per-row and batch actions. Rows
 * in queue or transcribing have their progress polled every 2 s and patched in place; when one
 * settles the page is fetched again (its status changes).
 *
 * Issue 43: the time shown is when the record was made (创建时间 — a move or a restore rewrites its
 * updateTime, which made rows look out of order), and the list is sorted by the server by name, that
 * time or length (the headers; a select on phones). The one search box filters by name; the transcripts'
 * full-text search is one click away (a link with the same words). The zip holds audio, transcripts or both.
 */
export function RecordsListView() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [folder, setFolder] = useState<FolderFilter>({ kind: "all" });
  const [search, setSearch] = useState("");
  const [fileName, setFileName] = useState("");
  const [fileStatus, setFileStatus] = useState(-1);
  const [sort, setSort] = useState<RecordSort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<RecordDialog>(null);

  useEffect(() => {
    const timer = setTimeout(() => setFileName(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter or order starts on page 1
  useEffect(() => setPage(1), [folder, fileName, fileStatus, sort]);

  const query: RecordsQuery = { page, pageSize: PAGE_SIZE, fileName, folder, fileStatus, sort };
  const list = useRecords(query);
  const listed = list.data?.records ?? [];

  const watching = listed.filter((r) => isInProgress(r.fileStatus)).map((r) => r.fileId);
  const progress = useTranscriptionProgress(watching);
  const byId = useMemo(() => progressById(progress.data), [progress.data]);
  const rows = listed.map((r) => {
    const p = isInProgress(r.fileStatus) ? byId.get(r.fileId) : undefined;
    return p && p.fileStatus !== FileStatus.NotFound ? { ...r, fileStatus: p.fileStatus, progress: p.progress } : r;
  });
  const settled = (progress.data ?? []).filter((p) => isSettled(p.fileStatus)).length;
  useEffect(() => {
    if (settled > 0) void client.invalidateQueries({ queryKey: queryKeys.records.lists() });
  }, [settled, client]);

  const selection = useSelection(rows.map((r) => r.fileId));
  const { clear } = selection;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another page or filter starts unselected
  useEffect(() => clear(), [page, folder, fileName, fileStatus, clear]);
  const filtered = fileName !== "" || fileStatus !== -1 || folder.kind !== "all";
  const close = () => setDialog(null);

  const sortable = (column: Column<AudioRecord>, field: RecordSort["by"], label: string): Column<AudioRecord> => ({
    ...column,
    header: <SortHeader field={field} label={label} sort={sort} onSort={setSort} />,
    sort: ariaSort(sort, field),
  });
  const [durationColumn, ...otherMeta] = metaColumns<AudioRecord>(t);
  const columns: Column<AudioRecord>[] = [
    sortable(nameColumn(t, true), "name", t("records.name")),
    sortable(durationColumn!, "duration", t("records.duration")),
    ...otherMeta,
    sortable(timeColumn(t("records.createTime"), createdAt), "time", t("records.createTime")),
    statusColumn(t),
    {
      id: "actions",
      header: t("records.actions"),
      kind: "actions",
      cell: (r) => <RecordRowActions record={r} onDialog={setDialog} />,
    },
  ];

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
            data-testid="records-search"
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
          <select
            className="input select records-sort"
            value={`${sort.by}-${sort.order}`}
            onChange={(e) => setSort(SORTS.find((s) => `${s.by}-${s.order}` === e.target.value) ?? DEFAULT_SORT)}
            aria-label={t("records.sort")}
            data-testid="records-sort"
          >
            {SORTS.map((s) => (
              <option key={`${s.by}-${s.order}`} value={`${s.by}-${s.order}`}>
                {t(`records.sort_${s.by}_${s.order}`)}
              </option>
            ))}
          </select>
        </div>
        {search.trim() !== "" && (
          // the same words across every transcript: the full-text search page, one step away
          <Link
            className="records-search-transcripts"
            to={`${paths.search}?${new URLSearchParams({ q: search.trim() }).toString()}`}
            data-testid="search-transcripts"
          >
            {t("records.searchTranscripts", { q: search.trim() })}
          </Link>
        )}

        <DataTable
          testId="records-table"
          rows={rows}
          rowId={(r) => r.fileId}
          rowName={(r) => r.fileName}
          columns={columns}
          status={{ isPending: list.isPending, isError: list.isError, retry: () => void list.refetch() }}
          selection={selection}
          batchActions={(selected) => (
            <>
              <Button size="sm" onClick={() => setDialog({ kind: "transcribe", records: selected })}>
                {t("records.transcribe")}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: "move", records: selected })}>
                {t("records.move")}
              </Button>
              <Button size="sm" variant="secondary" onClick={() => setDialog({ kind: "download", records: selected })}>
                {t("records.downloadZip")}
              </Button>
              <Button size="sm" variant="danger" onClick={() => setDialog({ kind: "delete", records: selected })}>
                {t("records.delete")}
              </Button>
            </>
          )}
          empty={
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
          }
          pagination={{ page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onPage: setPage }}
        />
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
      <BatchDownloadDialog records={dialog?.kind === "download" ? dialog.records : null} onClose={close} />
      <RecordTranscribeDialog
        records={dialog?.kind === "transcribe" ? dialog.records : null}
        onClose={close}
        onDone={selection.clear}
      />
    </div>
  );
}
