import { DEFAULT_SORT_ORDER, type RecordSortField } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import type { RecordSort } from "../api/get-records.ts";

/** How a sortable column's header says its state to assistive technology (aria-sort on its th). */
export function ariaSort(sort: RecordSort, field: RecordSortField): "ascending" | "descending" | "none" {
  if (sort.by !== field) return "none";
  return sort.order === "asc" ? "ascending" : "descending";
}

/** The next sort when a header is clicked: its field in its own order first, then the other way. */
export function nextSort(sort: RecordSort, field: RecordSortField): RecordSort {
  if (sort.by !== field) return { by: field, order: DEFAULT_SORT_ORDER[field] };
  return { by: field, order: sort.order === "asc" ? "desc" : "asc" };
}

/** A column header that sorts the list by its field (server-side), with an arrow for the current order. */
export function SortHeader({
  field,
  label,
  sort,
  onSort,
}: {
  field: RecordSortField;
  label: string;
  sort: RecordSort;
  onSort: (next: RecordSort) => void;
}) {
  const { t } = useTranslation();
  const active = sort.by === field;
  return (
    <button
      type="button"
      className={active ? "sort-header active" : "sort-header"}
      onClick={() => onSort(nextSort(sort, field))}
      title={t("records.sortBy", { column: label })}
      data-testid={`sort-${field}`}
    >
      {label}
      <span className="sort-arrow" aria-hidden>
        {active ? (sort.order === "asc" ? "↑" : "↓") : "↕"}
      </span>
    </button>
  );
}
