import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { PAGE_SIZES, pageCount } from "../lib/table.ts";

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/**
 * The pager under every console table: the total, the page size, previous / next and where one is.
 * The server pages (docs/admin.md); a page past the end (rows deleted meanwhile) offers the last one.
 */
export function TablePager({ page, pageSize, total, onPage, onPageSize }: PagerProps) {
  const { t } = useTranslation();
  const sizeId = useId();
  const pages = pageCount(total, pageSize);
  return (
    <nav className="admin-pager" aria-label={t("admin.table.pager")} data-testid="admin-pager">
      <span className="muted" data-testid="pager-total">
        {t("admin.table.total", { count: total })}
      </span>
      <label className="admin-pager-size" htmlFor={sizeId}>
        {t("admin.table.pageSize")}
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
        {t("admin.table.previous")}
      </Button>
      <span data-testid="pager-position" aria-live="polite">
        {t("admin.table.pageOf", { page, pages })}
      </span>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("admin.table.next")}
      </Button>
    </nav>
  );
}
