import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Page } from "../../components/page.tsx";
import { RequireLogin } from "../../components/require-login.tsx";
import { QuotaBars } from "../../features/layout/quota-bars.tsx";

/** Spec §2 /transaudio: audio/video to text. The upload zone's engine arrives with the records feature. */
export default function TransaudioPage() {
  const { t } = useTranslation();
  const notYet = () => toast.info(t("common.comingSoon"));
  return (
    <Page title={t("titles.transaudio")}>
      <RequireLogin>
        <div className="upload-zone" data-testid="upload-zone">
          <div className="empty-icon" aria-hidden>
            ⇪
          </div>
          <p>{t("empty.transaudio")}</p>
          <p className="muted">{t("landing.formats")}</p>
          <div className="hero-actions">
            <button type="button" className="btn btn-primary" onClick={notYet}>
              {t("common.uploadNow")}
            </button>
            <button type="button" className="btn btn-secondary" onClick={notYet}>
              {t("common.startRecording")}
            </button>
          </div>
        </div>
        <div className="transaudio-quota">
          <QuotaBars />
        </div>
      </RequireLogin>
    </Page>
  );
}
