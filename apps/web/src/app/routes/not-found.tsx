import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.ts";

/** Spec §2 /404: the page does not exist. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="standalone" data-testid="not-found">
      <div className="standalone-code">404</div>
      <h1>{t("notFound.title")}</h1>
      <p className="muted">{t("notFound.text")}</p>
      <Link className="btn btn-primary" to={paths.landing}>
        {t("common.backHome")}
      </Link>
    </main>
  );
}
