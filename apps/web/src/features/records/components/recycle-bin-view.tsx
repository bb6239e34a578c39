import type { RecycledRecord } from "@yuelu/contracts";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { useSelection } from "@/hooks/use-selection.ts";
import { useRecycleList } from "../api/get-recycle-list.ts";
import { useRestoreRecords } from "../api/restore-records.ts";
import { metaColumns, nameColumn, timeColumn } from "./record-columns.tsx";
import { RecordDeleteForeverDialog } from "./record-delete-forever-dialog.tsx";
import { PAGE_SIZE } from "./records-list-view.tsx";
import "./records-list-view.css";

/** The recycle bin: deleted records, restorable, or deleted forever after a confirmation. */
export function RecycleBinView() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useRecycleList({ page, pageSize: PAGE_SIZE });
  const restore = useRestoreRecords();
  const [purging, setPurging] = useState<RecycledRecord[] | null>(null);
  const rows = list.data?.records ?? [];
  const selection = useSelection(rows.map((r) => r.fileId));
  const emptyPage = list.isSuccess && rows.length === 0 && page > 1;
  // The last records of a later page were restored or deleted: show the page before.
  useEffect(() => {
    if (emptyPage) setPage((p) => p - 1);
  }, [emptyPage]);

  const doRestore = (records: RecycledRecord[]) =>
    restore.mutate(
      records.map((r) => r.fileId),
      {
        onSuccess: () => {
          toast.success(t("records.restored"));
          selection.clear();
        },
      },
    );

  const columns: Column<RecycledRecord>[] = [
    nameColumn(t, false),
    ...metaColumns(t),
    timeColumn(t("records.deleteTime"), (r) => r.deleteTime || r.updateTime),
    {
      id: "actions",
      header: t("records.actions"),
      kind: "actions",
      cell: (r) => (
        <div className="row-actions">
          <Button size="sm" variant="secondary" onClick={() => doRestore([r])} disabled={restore.isPending}>
            {t("records.restore")}
          </Button>
          <Button size="sm" variant="ghost" className="danger-text" onClick={() => setPurging([r])}>
            {t("records.deleteForever")}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className="records-main">
      {rows.length > 0 && <p className="muted">{t("records.recycleHint")}</p>}
      <DataTable
        testId="recycle-table"
        rows={rows}
        rowId={(r) => r.fileId}
        rowName={(r) => r.fileName}
        columns={columns}
        status={{
          // A later page that just emptied is on its way back to the page before.
          isPending: list.isPending || emptyPage,
          isError: list.isError,
          retry: () => void list.refetch(),
        }}
        selection={selection}
        batchActions={(selected) => (
          <>
            <Button size="sm" onClick={() => doRestore(selected)} disabled={restore.isPending}>
              {t("records.restore")}
            </Button>
            <Button size="sm" variant="danger" onClick={() => setPurging(selected)}>
              {t("records.deleteForever")}
            </Button>
          </>
        )}
        empty={<EmptyState icon="♻" text={t("empty.recycleBin")} />}
        pagination={{ page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onPage: setPage }}
      />
      <RecordDeleteForeverDialog records={purging} onClose={() => setPurging(null)} onDone={selection.clear} />
    </div>
  );
}
