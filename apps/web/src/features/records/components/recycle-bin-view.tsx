import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { EmptyState, ErrorState, Spinner } from "../../../components/ui/states.tsx";
import { formatDateTime, formatDuration, formatSize } from "../../../lib/format.ts";
import { useRecycleList } from "../api/get-recycle-list.ts";
import { useRestoreRecords } from "../api/restore-records.ts";
import type { AudioRecord } from "../api/types.ts";
import { useSelection } from "../hooks/use-selection.ts";
import { Pagination } from "./pagination.tsx";
import { RecordDeleteForeverDialog } from "./record-delete-forever-dialog.tsx";
import { PAGE_SIZE } from "./records-list-view.tsx";
import { SelectCheckbox } from "./select-checkbox.tsx";

/** The recycle bin: deleted records, restorable, or deleted forever after a confirmation. */
export function RecycleBinView() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useRecycleList({ page, pageSize: PAGE_SIZE });
  const restore = useRestoreRecords();
  const [purging, setPurging] = useState<AudioRecord[] | null>(null);
  const rows = list.data?.records ?? [];
  const selection = useSelection(rows.map((r) => r.fileId));
  const selectedRows = rows.filter((r) => selection.has(r.fileId));
  const emptyPage = list.isSuccess && rows.length === 0 && page > 1;
  // The last records of a later page were restored or deleted: show the page before.
  useEffect(() => {
    if (emptyPage) setPage((p) => p - 1);
  }, [emptyPage]);

  const doRestore = (records: AudioRecord[]) =>
    restore.mutate(
      records.map((r) => r.fileId),
      {
        onSuccess: () => {
          toast.success(t("records.restored"));
          selection.clear();
        },
      },
    );

  if (list.isPending) return <Spinner />;
  if (list.isError) return <ErrorState onRetry={() => void list.refetch()} />;
  if (rows.length === 0 && page === 1) return <EmptyState icon="♻" text={t("empty.recycleBin")} />;

  return (
    <div className="records-main">
      <p className="muted">{t("records.recycleHint")}</p>
      {selectedRows.length > 0 && (
        <div className="batch-bar" data-testid="batch-bar">
          <span>{t("records.selected", { count: selectedRows.length })}</span>
          <Button size="sm" onClick={() => doRestore(selectedRows)} disabled={restore.isPending}>
            {t("records.restore")}
          </Button>
          <Button size="sm" variant="danger" onClick={() => setPurging(selectedRows)}>
            {t("records.deleteForever")}
          </Button>
          <Button size="sm" variant="ghost" onClick={selection.clear}>
            {t("records.clearSelection")}
          </Button>
        </div>
      )}
      <table className="records-table" data-testid="recycle-table">
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
            <th>{t("records.deleteTime")}</th>
            <th className="col-actions">{t("records.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.fileId} data-testid={`record-${r.fileId}`}>
              <td className="col-check">
                <SelectCheckbox
                  checked={selection.has(r.fileId)}
                  label={t("records.select", { name: r.fileName })}
                  onChange={(on) => selection.toggle(r.fileId, on)}
                />
              </td>
              <td className="col-name">
                <span title={r.fileName}>{r.fileName}</span>
              </td>
              <td className="col-meta" data-label={t("records.duration")}>
                {formatDuration(r.timeLen)}
              </td>
              <td className="col-meta" data-label={t("records.size")}>
                {formatSize(r.fileSize)}
              </td>
              <td className="col-meta" data-label={t("records.deleteTime")}>
                {formatDateTime(r.deleteTime ?? r.updateTime)}
              </td>
              <td className="col-actions">
                <div className="row-actions">
                  <Button size="sm" variant="secondary" onClick={() => doRestore([r])} disabled={restore.isPending}>
                    {t("records.restore")}
                  </Button>
                  <Button size="sm" variant="ghost" className="danger-text" onClick={() => setPurging([r])}>
                    {t("records.deleteForever")}
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination page={page} pageSize={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} />
      <RecordDeleteForeverDialog records={purging} onClose={() => setPurging(null)} onDone={selection.clear} />
    </div>
  );
}
