import * as Popover from "@radix-ui/react-popover";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { useUserInfo } from "@/lib/account.ts";
import { formatDateTime } from "@/lib/format.ts";
import { logout } from "@/lib/logout.ts";
import { useSession } from "@/lib/session.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { QuotaBars } from "./quota-bars.tsx";
import "./user-menu.css";

/** Avatar and nickname; opens the account summary with the quota bars and sign-out. */
export function UserMenu() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const info = useUserInfo();
  const name = displayNickname(info.data?.nickName ?? session.userName, i18n.language);
  const initial = name.slice(0, 1).toUpperCase();
  return (
    <Popover.Root>
      <Popover.Trigger className="user-trigger" data-testid="user-menu">
        {info.data?.userPhoto ? (
          <img className="avatar" src={info.data.userPhoto} alt="" />
        ) : (
          <span className="avatar" aria-hidden>
            {initial}
          </span>
        )}
        <span className="user-name" data-testid="user-name">
          {name}
        </span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="popover user-popover" align="end" sideOffset={8}>
          <div className="user-popover-head">
            <strong>{name}</strong>
            {info.data?.isMember ? (
              <span className="muted">
                {t("common.memberUntil", { date: formatDateTime(info.data.memberEffectiveTime).slice(0, 10) })}
              </span>
            ) : (
              <Link to={paths.vip}>{t("common.openVip")}</Link>
            )}
          </div>
          <QuotaBars />
          <div className="user-popover-links">
            <Link to={paths.personalInfo}>{t("titles.personalInfo")}</Link>
            <Link to={paths.people} data-testid="menu-people">
              {t("titles.people")}
            </Link>
            <Link to={paths.audioList}>{t("titles.audioList")}</Link>
          </div>
          <Button variant="secondary" block onClick={logout} data-testid="logout">
            {t("common.logout")}
          </Button>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
