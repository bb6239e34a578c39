import { clsx } from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SortOrder } from "@/lib/table.ts";
import { EmptyState, ErrorState, Spinner } from "./states.tsx";
import { type PagerProps, TablePager } from "./table-pager.tsx";
import "./paged-table.css";

export interface PagedColumn<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** the `sort` value the call takes for this column: its header then sorts */
  sort?: string;
  /** numbers and money line up on the right */
  numeric?: boolean;
}

interface PagedTableProps<Row> {
  columns: PagedColumn<Row>[];
  rowKey: (row: Row) => string | number;
  /** the query behind the table */
  result: {
    data?: { items: Row[]; total: number };
    isPending: boolean;
    isError: boolean;
    isFetching?: boolean;
    refetch: () => unknown;
  };
  sort?: string;
  order?: SortOrder;
  onSort?: (column: string) => void;
  pager?: Omit<PagerProps, "total">;
  empty?: ReactNode;
  /** names the table for screen readers */
  caption: string;
  testId: string;
  rowTestId?: (row: Row) => string;
}

/**
 * A table whose rows the server pages, sorts and filters (the operator console's): its loading, error
 * and empty states, sortable headers (aria-sort), and the pager. It scrolls sideways inside its own
 * box on a phone rather than widening the page.
 */
export function PagedTable<Row>(props: PagedTableProps<Row>) {
  const { t } = useTranslation();
  const { columns, result, sort, order, onSort, pager } = props;
  const data = result.data;
  if (result.isPending && !data) return <Spinner />;
  if (result.isError && !data) return <ErrorState onRetry={() => void result.refetch()} />;
  if (!data) return null;
  return (
    <div className={clsx("paged-table-box", result.isFetching && "is-fetching")} aria-busy={result.isFetching}>
      {data.items.length === 0 ? (
        (props.empty ?? <EmptyState text={t("table.empty")} />)
      ) : (
        <div className="paged-table-scroll">
          <table className="paged-table" data-testid={props.testId}>
            <caption className="sr-only">{props.caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => {
                  const active = c.sort !== undefined && c.sort === sort;
                  const ariaSort = active ? (order === "asc" ? "ascending" : "descending") : undefined;
                  return (
                    <th key={c.id} scope="col" aria-sort={ariaSort} className={clsx(c.numeric && "num")}>
                      {c.sort && onSort ? (
                        <button type="button" className="paged-table-sort" onClick={() => onSort(c.sort as string)}>
                          {c.header}
                          <span aria-hidden className={clsx("paged-table-sort-mark", active && "active")}>
                            {active ? (order === "asc" ? "▲" : "▼") : "↕"}
                          </span>
                        </button>
                      ) : (
                        c.header
                      )}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {data.items.map((row) => (
                <tr key={props.rowKey(row)} data-testid={props.rowTestId?.(row)}>
                  {columns.map((c) => (
                    <td key={c.id} className={clsx(c.numeric && "num")}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager && <TablePager {...pager} total={data.total} />}
    </div>
  );
}
