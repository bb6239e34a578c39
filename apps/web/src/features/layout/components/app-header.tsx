import { UNREAD_BADGE_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { useAssets, useUnreadSize, useUserInfo } from "@/lib/account.ts";
import { loginDialog, messageDialog, openCashier, rewardDialog, shopDialog } from "@/lib/app-dialogs.ts";
import { badgeCount, formatDurationText } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import { LanguageSwitch } from "./language-switch.tsx";
import { UserMenu } from "./user-menu.tsx";
import "./app-header.css";

/**
 * The app header: brand, the member badge (a member's links to /vip; otherwise 'become a member'
 * opens the cashier), the beans (they open the shop) and the time-card balance, the rewards
 * (check-in, tasks, gift codes), the messages with their unread badge, language, account.
 */
export function AppHeader() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <header className="app-header">
      <Link to={paths.landing} className="brand">
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
      <button type="button" className="header-stat" onClick={shopDialog.open} data-testid="beans">
        {/* named by what it shows, after where it leads: "Bean shop · Beans 120" */}
        <span className="sr-only">{t("shop.title")} · </span>
        <span className="stat-icon" aria-hidden>
          ●
        </span>
        <span className="stat-label">{t("common.beans")} </span>
        <strong>{assets.data?.allCoinNumber ?? "–"}</strong>
      </button>
      <Link to={`${paths.personalInfo}?menu=timeCards`} className="header-stat" data-testid="time-card">
        <span className="stat-icon" aria-hidden>
          ◷
        </span>
        <span className="stat-label">{t("common.timeCard")}</span>
        <strong>{assets.data ? formatDurationText(t, assets.data.allTimeCard, "compact") : "–"}</strong>
      </Link>
      <button
        type="button"
        className="header-icon"
        onClick={rewardDialog.open}
        data-testid="rewards"
        aria-label={t("rewards.open")}
        title={t("rewards.open")}
      >
        <GiftIcon />
      </button>
      <button
        type="button"
        className="header-icon header-bell"
        onClick={messageDialog.open}
        data-testid="unread"
        data-count={unreadCount}
        aria-label={`${t("common.messages")} · ${t("messages.unreadN", { count: unreadCount })}`}
        title={t("common.messages")}
      >
        <BellIcon />
        {unreadCount > 0 && (
          <span className="badge-dot" aria-hidden data-testid="unread-badge">
            {badgeCount(unreadCount, UNREAD_BADGE_MAX)}
          </span>
        )}
      </button>
    </>
  );
}

/** The header's icons, drawn inline (an emoji font is not everywhere). */
function GiftIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.8">
      <rect x="3.5" y="9" width="17" height="4" rx="1" />
      <path d="M5 13v6.5a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V13M12 9v11.5" />
      <path d="M12 9c-1.5-3.5-5.5-4.5-5.5-2 0 1.6 2.5 2 5.5 2Zm0 0c1.5-3.5 5.5-4.5 5.5-2 0 1.6-2.5 2-5.5 2Z" />
    </svg>
  );
}

function BellIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.8">
      <rect x="3" y="5.5" width="18" height="13" rx="2" />
      <path d="m3.5 7 8.5 6 8.5-6" />
    </svg>
  );
}
