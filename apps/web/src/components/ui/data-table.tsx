import { clsx } from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Selection } from "@/hooks/use-selection.ts";
import { Button } from "./button.tsx";
import { Pagination } from "./pagination.tsx";
import { SelectCheckbox } from "./select-checkbox.tsx";
import { ErrorState, Spinner } from "./states.tsx";
import "./data-table.css";

/**
 * How a column's cells lay out; on phones the rows become cards: the name and the status on the
 * first line, the meta values on the second, the actions on the third.
 */
export type ColumnKind = "name" | "meta" | "status" | "actions";

export interface Column<Row> {
  id: string;
  header: ReactNode;
  kind: ColumnKind;
  cell: (row: Row) => ReactNode;
  /** the header text beside a meta value on phones (data-label) */
  label?: string;
  /** a column the list can be sorted by: how it is sorted now (aria-sort on its header) */
  sort?: "ascending" | "descending" | "none";
}

export interface DataTableProps<Row, Id extends number | string = number> {
  rows: Row[];
  /** a row's id: its React key, its selection id, and its test id through rowTestId */
  rowId: (row: Row) => Id;
  /** a row's name, for its checkbox's label ('select 周会.mp3') */
  rowName: (row: Row) => string;
  columns: Column<Row>[];
  /** the query behind the rows: loading and error states come from it */
  status: { isPending: boolean; isError: boolean; retry: () => void };
  /** shown instead of the table when there are no rows */
  empty: ReactNode;
  /** rows can be selected (checkbox column), and these actions apply to the selection */
  selection?: Selection<Id>;
  batchActions?: (selected: Row[]) => ReactNode;
  pagination?: { page: number; pageSize: number; total: number; onPage: (page: number) => void };
  testId: string;
  /** the rows' test ids: `record-<id>` unless given */
  rowTestId?: (id: Id) => string;
  /** on phones, write each meta value's label before it (lists whose values look alike: dates) */
  phoneLabels?: boolean;
}

/**
 * The one list table (My records, the recycle bin, my orders, my time cards): selection with a
 * batch bar, columns given by the page, its loading, error and empty states, and paging.
 */
export function DataTable<Row, Id extends number | string = number>(props: DataTableProps<Row, Id>) {
  const { t } = useTranslation();
  const { rows, rowId, rowName, columns, status, empty, selection, batchActions, pagination, testId } = props;
  const rowTestId = props.rowTestId ?? ((id: Id) => `record-${id}`);
  const selected = selection ? rows.filter((r) => selection.has(rowId(r))) : [];

  let body: ReactNode;
  if (status.isPending) body = <Spinner />;
  else if (status.isError) body = <ErrorState onRetry={status.retry} />;
  else if (rows.length === 0) body = empty;
  else
    body = (
      <>
        <table
          className={clsx("data-table", !selection && "no-select", props.phoneLabels && "phone-labels")}
          data-testid={testId}
        >
          <thead>
            <tr>
              {selection && (
                <th className="col-check">
                  <SelectCheckbox
                    checked={selection.all}
                    indeterminate={selection.some}
                    label={t("table.selectAll")}
                    onChange={selection.toggleAll}
                  />
                </th>
              )}
              {columns.map((c) => (
                <th key={c.id} className={c.kind === "actions" ? "col-actions" : undefined} aria-sort={c.sort}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const id = rowId(row);
              return (
                <tr key={id} data-testid={rowTestId(id)} className={selection?.has(id) ? "selected" : undefined}>
                  {selection && (
                    <td className="col-check">
                      <SelectCheckbox
                        checked={selection.has(id)}
                        label={t("table.select", { name: rowName(row) })}
                        onChange={(on) => selection.toggle(id, on)}
                      />
                    </td>
                  )}
                  {columns.map((c) => (
                    <td key={c.id} className={`col-${c.kind}`} data-label={c.label}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {pagination && <Pagination {...pagination} />}
      </>
    );

  return (
    <>
      {selection && selected.length > 0 && (
        <div className="batch-bar" data-testid="batch-bar">
          <span>{t("table.selected", { count: selected.length })}</span>
          {batchActions?.(selected)}
          <Button size="sm" variant="ghost" onClick={selection.clear}>
            {t("table.clearSelection")}
          </Button>
        </div>
      )}
      {body}
    </>
  );
}
