import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { PAGE_SIZES, type SortOrder } from "@/lib/table.ts";

export interface TableDefaults<F extends string> {
  sort: string;
  order?: SortOrder;
  pageSize?: number;
  /** the filters this table sends (each a query-string parameter of the call) */
  filters?: readonly F[];
}

export interface TableQuery {
  page: number;
  pageSize: number;
  sort: string;
  order: SortOrder;
}

/**
 * A server-side table's page, size, sort and filters, kept in the address (so reloading, the back
 * button and a shared link show the same rows). `prefix` tells two tables of one page apart.
 * Changing the sort, the size or a filter goes back to page 1.
 */
export function useTableState<F extends string = never>(defaults: TableDefaults<F>, prefix = "") {
  const [search, setSearch] = useSearchParams();
  const key = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const defaultSize = defaults.pageSize ?? 20;
  const filterNames = defaults.filters ?? [];

  const read = (name: string) => search.get(key(name)) ?? "";
  const page = Math.max(1, Math.trunc(Number(read("page"))) || 1);
  const sizeParam = Number(read("pageSize"));
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeParam) ? sizeParam : defaultSize;
  const sort = read("sort") || defaults.sort;
  const orderParam = read("order");
  const order: SortOrder = orderParam === "asc" || orderParam === "desc" ? orderParam : (defaults.order ?? "desc");
  const filters = Object.fromEntries(filterNames.map((f) => [f, read(f)])) as Record<F, string>;

  const update = useCallback(
    (changes: Record<string, string | number | undefined>) => {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            const k = prefix ? `${prefix}.${name}` : name;
            if (value === undefined || value === "") next.delete(k);
            else next.set(k, String(value));
          }
          return next;
        },
        { replace: true },
      );
    },
    [setSearch, prefix],
  );

  // a new object each render is fine: react-query compares query keys by value
  const query: TableQuery & Record<F, string> = { page, pageSize, sort, order, ...filters };

  return {
    query,
    filters,
    setPage: (next: number) => update({ page: next === 1 ? undefined : next }),
    setPageSize: (size: number) => update({ pageSize: size === defaultSize ? undefined : size, page: undefined }),
    /** a column's header: sorts by it, descending first; again reverses the order */
    sortBy: (column: string) => {
      const nextOrder: SortOrder = column === sort ? (order === "desc" ? "asc" : "desc") : "desc";
      update({ sort: column === defaults.sort ? undefined : column, order: nextOrder, page: undefined });
    },
    setFilters: (values: Partial<Record<F, string>>) => update({ ...values, page: undefined }),
  };
}
