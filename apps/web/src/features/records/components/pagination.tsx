import { useTranslation } from "react-i18next";
import { Button } from "../../../components/ui/button.tsx";

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
    <nav className="pager" aria-label={t("records.pageOf", { page, pages })}>
      <span className="muted">{t("records.total", { total })}</span>
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("records.prevPage")}
      </Button>
      <span data-testid="page-of">{t("records.pageOf", { page, pages })}</span>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t("records.nextPage")}
      </Button>
    </nav>
  );
}
