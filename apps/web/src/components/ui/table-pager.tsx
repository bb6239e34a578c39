import { useId } from "react";
import { useTranslation } from "react-i18next";
import { PAGE_SIZES, pageCount } from "@/lib/table.ts";
import { Button } from "./button.tsx";
import "./table-pager.css";

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/**
 * The pager under a server-paged table (PagedTable): the total, the page size, previous / next and
 * where one is. A page past the end (rows deleted meanwhile) offers the last one.
 */
export function TablePager({ page, pageSize, total, onPage, onPageSize }: PagerProps) {
  const { t } = useTranslation();
  const sizeId = useId();
  const pages = pageCount(total, pageSize);
  return (
    <nav className="table-pager" aria-label={t("table.pager")} data-testid="table-pager">
      <span className="muted" data-testid="pager-total">
        {t("table.total", { count: total })}
      </span>
      <label className="table-pager-size" htmlFor={sizeId}>
        {t("table.pageSize")}
        <select
          id={sizeId}
          className="input select"
          value={pageSize}
          onChange={(e) => onPageSize(Number(e.target.value))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(Math.min(page - 1, pages))}>
        {t("table.previous")}
      </Button>
      <span data-testid="pager-position" aria-live="polite">
        {t("table.pageOf", { page, pages })}
      </span>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("table.next")}
      </Button>
    </nav>
  );
}
