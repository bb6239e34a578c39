import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { Page } from "../../components/page.tsx";
import { RequireLogin } from "../../components/require-login.tsx";
import { EmptyState, ErrorState, Spinner } from "../../components/ui/states.tsx";
import { useUserInfo } from "../../features/account/api.ts";
import { QuotaBars } from "../../features/layout/quota-bars.tsx";
import { formatDateTime } from "../../lib/format.ts";

/** Spec §2 /personalInfo; `menu=coinDetail` opens the bean details. */
export default function PersonalInfoPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <Page title={t("personal.title")}>
      <RequireLogin>{params.get("menu") === "coinDetail" ? <CoinDetail /> : <Profile />}</RequireLogin>
    </Page>
  );
}

function Profile() {
  const { t } = useTranslation();
  const info = useUserInfo();
  if (info.isPending) return <Spinner />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const u = info.data;
  const rows: [string, string][] = [
    [t("personal.nickName"), u.nickName],
    [t("personal.phone"), u.phoneNumber],
    [t("personal.inviteCode"), u.inviteCode ?? "–"],
    [
      t("common.member"),
      u.isMember
        ? t("common.memberUntil", { date: formatDateTime(u.memberEffectiveTime).slice(0, 10) })
        : t("common.notMember"),
    ],
    [t("personal.registeredAt"), formatDateTime(u.createTime)],
  ];
  return (
    <div className="profile">
      <dl className="profile-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <QuotaBars />
    </div>
  );
}

function CoinDetail() {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="section-title">{t("personal.coinDetail")}</h2>
      <EmptyState icon="●" text={t("common.comingSoon")} />
    </>
  );
}
