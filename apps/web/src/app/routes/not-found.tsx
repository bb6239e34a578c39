import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { StandaloneMark, StandalonePage } from "@/components/standalone-page.tsx";
import { paths } from "@/config/paths.ts";

/** Spec §2 /404: the page does not exist. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StandalonePage testId="not-found">
      <StandaloneMark>404</StandaloneMark>
      <h1>{t("notFound.title")}</h1>
      <p className="muted">{t("notFound.text")}</p>
      <Link className="btn btn-primary" to={paths.landing}>
        {t("common.backHome")}
      </Link>
    </StandalonePage>
  );
}
