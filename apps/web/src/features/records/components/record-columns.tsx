import type { AudioRecord } from "@yuelu/contracts";
import type { TFunction } from "i18next";
import { Link } from "react-router-dom";
import type { Column } from "@/components/ui/data-table.tsx";
import { formatDateTime, formatDuration, formatSize } from "@/lib/format.ts";
import { detailHref } from "../lib/links.ts";
import { StatusBadge } from "./status-badge.tsx";

/**
 * The columns My records and the recycle bin share; each list adds its own (status and actions,
 * delete time) around them.
 */
export function nameColumn<Row extends AudioRecord>(t: TFunction, linked: boolean): Column<Row> {
  return {
    id: "name",
    header: t("records.name"),
    kind: "name",
    cell: (r) =>
      linked ? (
        <Link to={detailHref(r)} title={r.fileName}>
          {r.fileName}
        </Link>
      ) : (
        <span title={r.fileName}>{r.fileName}</span>
      ),
  };
}

export function metaColumns<Row extends AudioRecord>(t: TFunction): Column<Row>[] {
  return [
    {
      id: "duration",
      header: t("records.duration"),
      label: t("records.duration"),
      kind: "meta",
      cell: (r) => formatDuration(r.timeLen),
    },
    {
      id: "size",
      header: t("records.size"),
      label: t("records.size"),
      kind: "meta",
      cell: (r) => formatSize(r.fileSize),
    },
  ];
}

export function timeColumn<Row extends AudioRecord>(header: string, time: (row: Row) => number): Column<Row> {
  return { id: "time", header, label: header, kind: "meta", cell: (r) => formatDateTime(time(r)) };
}

/** When a record was made (an older server without createTime: its updateTime). */
export const createdAt = (r: AudioRecord): number => r.createTime ?? r.updateTime;

export function statusColumn<Row extends AudioRecord>(t: TFunction): Column<Row> {
  return {
    id: "status",
    header: t("records.status"),
    kind: "status",
    cell: (r) => <StatusBadge fileStatus={r.fileStatus} progress={r.progress} />,
  };
}
