import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { useUserInfo } from "@/lib/account.ts";
import { openCashier } from "@/lib/app-dialogs.ts";
import { formatDateTime } from "@/lib/format.ts";
import "./membership-card.css";

/** The membership state: a member's expiry and 'renew', or what membership brings and 'go VIP'. */
export function MembershipCard() {
  const { t } = useTranslation();
  const info = useUserInfo();
  if (!info.data) return null;
  const member = info.data.isMember;
  return (
    <section
      className={member ? "member-card is-member" : "member-card"}
      data-testid="membership"
      data-member={member ? 1 : 0}
    >
      <div className="member-card-head">
        <span className="member-card-crown" aria-hidden>
          ♛
        </span>
        <h2 className="member-card-title">{member ? t("common.member") : t("common.notMember")}</h2>
      </div>
      <p className="member-card-text">
        {member
          ? t("personal.memberText", { date: formatDateTime(info.data.memberEffectiveTime).slice(0, 10) })
          : t("personal.notMemberText")}
      </p>
      <div className="member-card-actions">
        <Button
          size="sm"
          variant="gold"
          onClick={() => openCashier({ defaultTab: "membership" })}
          data-testid="membership-buy"
        >
          {member ? t("personal.renew") : t("personal.becomeMember")}
        </Button>
        <Link to={paths.vip} className="member-card-link">
          {t("personal.compare")} ›
        </Link>
      </div>
    </section>
  );
}
