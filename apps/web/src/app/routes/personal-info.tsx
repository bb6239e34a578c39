import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { CoinDetail, Profile } from "@/features/account/components/profile.tsx";
import { QuotaBars } from "@/features/layout/components/quota-bars.tsx";
import "./personal-info.css";

/** Spec §2 /personalInfo; `menu=coinDetail` opens the bean details. */
export default function PersonalInfoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <Page title={t("personal.title")}>
      <RequireLogin>
        {params.get("menu") === "coinDetail" ? (
          <CoinDetail />
        ) : (
          <div className="profile">
            <Profile />
            <QuotaBars />
          </div>
        )}
      </RequireLogin>
    </Page>
  );
}
