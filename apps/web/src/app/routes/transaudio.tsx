import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { QuotaBars } from "@/features/layout/components/quota-bars.tsx";
import { TransaudioView } from "@/features/records/components/transaudio-view.tsx";
import { useSession } from "@/lib/session.ts";
import { removeStorage, StorageKey } from "@/lib/storage.ts";
import "./transaudio.css";

/** Spec §2 /transaudio: audio/video to text. */
export default function TransaudioPage() {
  const { t } = useTranslation();
  const session = useSession();
  // Spec §4: leaving /transaudio while logged in clears the stored voice-bank data.
  useEffect(() => {
    if (!session.loggedIn) return;
    return () => removeStorage(StorageKey.voiceBank);
  }, [session.loggedIn]);
  return (
    <Page title={t("titles.transaudio")}>
      <RequireLogin>
        <TransaudioView />
        <div className="transaudio-quota">
          <QuotaBars />
        </div>
      </RequireLogin>
    </Page>
  );
}
