import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import "./pagination.css";

/** Previous / next through a paged list, with the total and "page of pages". */
export function Pagination({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className="pager" aria-label={t("pagination.label", { page, pages })}>
      <span className="muted">{t("pagination.total", { count: total })}</span>
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("pagination.previous")}
      </Button>
      <span data-testid="page-of">{t("pagination.pageOf", { page, pages })}</span>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("pagination.next")}
      </Button>
    </nav>
  );
}
