import type { AdminPage } from "@yuelu/contracts";
import { clsx } from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import type { SortOrder } from "../lib/table.ts";
import { type PagerProps, TablePager } from "./table-pager.tsx";

export interface AdminColumn<Row> {
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** the `sort` value the call takes for this column: its header then sorts */
  sort?: string;
  /** numbers and money line up on the right */
  numeric?: boolean;
}

interface AdminTableProps<Row> {
  columns: AdminColumn<Row>[];
  rowKey: (row: Row) => string | number;
  /** the query behind the table */
  result: { data?: AdminPage<Row>; isPending: boolean; isError: boolean; isFetching?: boolean; refetch: () => unknown };
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
 * The console's table: rows paged, sorted and filtered by the server, its loading, error and empty
 * states, sortable headers (aria-sort), and the pager. It scrolls sideways inside its own box on a
 * phone rather than widening the page.
 */
export function AdminTable<Row>(props: AdminTableProps<Row>) {
  const { t } = useTranslation();
  const { columns, result, sort, order, onSort, pager } = props;
  const data = result.data;
  if (result.isPending && !data) return <Spinner />;
  if (result.isError && !data) return <ErrorState onRetry={() => void result.refetch()} />;
  if (!data) return null;
  return (
    <div className={clsx("admin-table-box", result.isFetching && "is-fetching")} aria-busy={result.isFetching}>
      {data.items.length === 0 ? (
        (props.empty ?? <EmptyState text={t("admin.table.empty")} />)
      ) : (
        <div className="admin-table-scroll">
          <table className="admin-table" data-testid={props.testId}>
            <caption className="sr-only">{props.caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => {
                  const active = c.sort !== undefined && c.sort === sort;
                  const ariaSort = active ? (order === "asc" ? "ascending" : "descending") : undefined;
                  return (
                    <th key={c.id} scope="col" aria-sort={ariaSort} className={clsx(c.numeric && "num")}>
                      {c.sort && onSort ? (
                        <button type="button" className="admin-sort" onClick={() => onSort(c.sort as string)}>
                          {c.header}
                          <span aria-hidden className={clsx("admin-sort-mark", active && "active")}>
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
