import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useUserInfo } from "@/lib/account.ts";
import { formatDateTime } from "@/lib/format.ts";
import { displayNickname } from "@/utils/nickname.ts";
import "./profile.css";

/** The personal centre's profile: nickname, phone, invite code, membership, joined. */
export function Profile() {
  const { t, i18n } = useTranslation();
  const info = useUserInfo();
  if (info.isPending) return <Spinner />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const u = info.data;
  const rows: [string, string][] = [
    [t("personal.nickName"), displayNickname(u.nickName, i18n.language)],
    [t("personal.phone"), u.phoneNumber],
    [t("personal.inviteCode"), u.inviteCode || "–"],
    [
      t("common.member"),
      u.isMember
        ? t("common.memberUntil", { date: formatDateTime(u.memberEffectiveTime).slice(0, 10) })
        : t("common.notMember"),
    ],
    [t("personal.registeredAt"), formatDateTime(u.createTime)],
  ];
  return (
    <dl className="profile-list" data-testid="profile">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Spec §2 `menu=coinDetail`: the bean details (their list arrives with the shop). */
export function CoinDetail() {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="section-title">{t("personal.coinDetail")}</h2>
      <EmptyState icon="●" text={t("common.comingSoon")} />
    </>
  );
}
