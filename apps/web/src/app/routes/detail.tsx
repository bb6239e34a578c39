import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { RequireLogin } from "../../components/require-login.tsx";
import { EmptyState } from "../../components/ui/states.tsx";
import { paths } from "../../config/paths.ts";
import { AppHeader } from "../../features/layout/app-header.tsx";

/**
 * Spec §2 /detail (fileId, timeLen, fileName): the transcript view. Until records can be
 * transcribed there is no record to show, so it says so and links back.
 */
export default function DetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const fileName = params.get("fileName");
  return (
    <div className="home">
      <AppHeader />
      <main className="home-main detail-main">
        <h1 className="page-title">{fileName ?? t("titles.detail")}</h1>
        <div className="card">
          <RequireLogin>
            <EmptyState
              icon="📄"
              text={t("empty.detail")}
              action={
                <Link className="btn btn-secondary" to={paths.audioList}>
                  {t("titles.audioList")}
                </Link>
              }
            />
          </RequireLogin>
        </div>
      </main>
    </div>
  );
}
