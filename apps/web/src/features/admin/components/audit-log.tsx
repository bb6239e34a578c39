import type { AdminAuditEntry } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { type AuditFilter, useAuditLog } from "../api/audit.ts";
import { formatInstant } from "../lib/format.ts";
import { ChangeDiff } from "./change-diff.tsx";

/** The audit log: who did what to what, when and from where, with each change's before → after. */
export function AuditLog() {
  const { t } = useTranslation();
  const table = useTableState<AuditFilter>({ sort: "createdAt", filters: ["action", "target", "actorId"] });
  const log = useAuditLog(table.query);
  const [open, setOpen] = useState<AdminAuditEntry | null>(null);

  const columns: PagedColumn<AdminAuditEntry>[] = [
    {
      id: "time",
      header: t("admin.audit.time"),
      sort: "createdAt",
      cell: (e) => <span className="admin-nowrap">{formatInstant(e.createdAt)}</span>,
    },
    {
      id: "actor",
      header: t("admin.audit.actor"),
      cell: (e) => (e.actorId === null ? t("admin.audit.cli") : `${e.actorPhone || ""} #${e.actorId}`),
    },
    { id: "action", header: t("admin.audit.actionCol"), cell: (e) => <code className="admin-mono">{e.action}</code> },
    { id: "target", header: t("admin.audit.target"), cell: (e) => <span className="admin-mono">{e.target}</span> },
    { id: "reason", header: t("admin.field.reason"), cell: (e) => e.reason },
    { id: "from", header: t("admin.audit.from"), cell: (e) => <span className="admin-mono">{e.ip}</span> },
    {
      id: "change",
      header: t("admin.audit.change"),
      cell: (e) => (
        <Button size="sm" variant="ghost" onClick={() => setOpen(e)}>
          {t("admin.audit.showChange")}
        </Button>
      ),
    },
  ];

  return (
    <>
      <FilterBar
        values={table.filters}
        onApply={table.setFilters}
        fields={[
          { name: "action", label: t("admin.audit.action"), placeholder: t("admin.audit.actionHint") },
          { name: "target", label: t("admin.audit.target"), placeholder: t("admin.audit.targetHint") },
          { name: "actorId", label: t("admin.audit.actorId"), inputMode: "numeric" },
        ]}
      />
      <PagedTable
        caption={t("admin.audit.title")}
        testId="audit-table"
        columns={columns}
        rowKey={(e) => e.id}
        result={log}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <Dialog
        open={open !== null}
        onOpenChange={(o) => !o && setOpen(null)}
        title={open ? `${open.action} · ${open.target}` : ""}
        wide
      >
        {open && (
          <>
            <p className="muted">
              {formatInstant(open.createdAt)} · {open.actorId === null ? t("admin.audit.cli") : open.actorPhone}
              {open.reason ? ` · ${open.reason}` : ""}
            </p>
            <ChangeDiff before={open.before} after={open.after} />
            <p className="muted admin-mono">{open.userAgent}</p>
          </>
        )}
      </Dialog>
    </>
  );
}
