import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { RequireLogin } from "../../components/require-login.tsx";
import { AppHeader } from "../../features/layout/app-header.tsx";
import { useSession } from "../../features/session/session-store.ts";
import { DetailView } from "../../features/transcript/components/detail-view.tsx";

/** Spec §2 /detail (fileId, timeLen, fileName): the transcript view, outside the home layout. */
export default function DetailPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [params] = useSearchParams();
  return (
    <div className="home">
      <AppHeader />
      <main className="home-main detail-main">
        {session.loggedIn ? (
          <DetailView />
        ) : (
          <>
            <h1 className="page-title">{params.get("fileName") ?? t("titles.detail")}</h1>
            <div className="card">
              <RequireLogin>{null}</RequireLogin>
            </div>
          </>
        )}
      </main>
    </div>
  );
}
