import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { useAssets, useUnreadSize, useUserInfo } from "@/lib/account.ts";
import { loginDialog, openCashier, rewardDialog } from "@/lib/app-dialogs.ts";
import { badgeCount, formatDurationText } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import { LanguageSwitch } from "./language-switch.tsx";
import { UserMenu } from "./user-menu.tsx";
import "./app-header.css";

/**
 * The app header: brand, the member badge (a member's links to /vip; otherwise 'become a member'
 * opens the cashier), beans and time-card balance, messages, language, account.
 */
export function AppHeader() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <header className="app-header">
      <Link to={paths.landing} className="brand" aria-label={t("brand.name")}>
        <span className="brand-mark" aria-hidden>
          悦
        </span>
        <span className="brand-name">{t("brand.name")}</span>
      </Link>
      <div className="header-right">
        {session.loggedIn ? <SignedInWidgets /> : null}
        <LanguageSwitch />
        {session.loggedIn ? (
          <UserMenu />
        ) : (
          <Button onClick={loginDialog.open} data-testid="login-button">
            {t("common.loginRegister")}
          </Button>
        )}
      </div>
    </header>
  );
}

function SignedInWidgets() {
  const { t } = useTranslation();
  const info = useUserInfo();
  const assets = useAssets();
  const unread = useUnreadSize();
  const unreadCount = unread.data?.unreadSize ?? 0;
  return (
    <>
      {info.data &&
        (info.data.isMember ? (
          <Link to={paths.vip} className="badge badge-member" data-testid="member-badge" data-member="1">
            ♛<span className="badge-text"> {t("common.member")}</span>
          </Link>
        ) : (
          <button
            type="button"
            className="badge badge-join"
            onClick={() => openCashier({ defaultTab: "membership" })}
            data-testid="member-badge"
            data-member="0"
            aria-label={t("common.openVip")}
          >
            ♛<span className="badge-text"> {t("common.openVip")}</span>
          </button>
        ))}
      <button type="button" className="header-stat" onClick={rewardDialog.open} data-testid="beans">
        <span className="stat-icon" aria-hidden>
          ●
        </span>
        <span className="stat-label">{t("common.beans")}</span>
        <strong>{assets.data?.allCoinNumber ?? "–"}</strong>
      </button>
      <Link to={`${paths.personalInfo}?menu=timeCards`} className="header-stat" data-testid="time-card">
        <span className="stat-icon" aria-hidden>
          ◷
        </span>
        <span className="stat-label">{t("common.timeCard")}</span>
        <strong>{assets.data ? formatDurationText(t, assets.data.allTimeCard) : "–"}</strong>
      </Link>
      <span className="header-bell" data-testid="unread">
        <span aria-hidden>✉</span>
        <span className="sr-only">{`${t("common.messages")} ${unreadCount}`}</span>
        {unreadCount > 0 && <span className="badge-dot">{badgeCount(unreadCount)}</span>}
      </span>
    </>
  );
}
