import { GoodsType } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useStorageInfo, useUserInfo } from "@/lib/account.ts";
import { loginDialog, openCashier } from "@/lib/app-dialogs.ts";
import { formatDateTime, formatDurationText } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import { usePayGoods } from "../api/get-pay-goods.ts";
import { BenefitTable } from "./benefit-table.tsx";
import { GoodsSummary } from "./goods-picker.tsx";
import { GoodsPrice } from "./goods-price.tsx";
import "./vip-center.css";

/** Where the user's membership stands (user info isMember / memberEffectiveTime) and today's cap. */
function MembershipStatus() {
  const { t } = useTranslation();
  const session = useSession();
  const info = useUserInfo();
  const storage = useStorageInfo();
  if (!session.loggedIn) {
    return (
      <div className="vip-status" data-testid="vip-status">
        <p>{t("vip.statusLogin")}</p>
        <Button onClick={loginDialog.open}>{t("common.login")}</Button>
      </div>
    );
  }
  if (info.isPending) return <Spinner />;
  if (info.isError) return <ErrorState onRetry={() => void info.refetch()} />;
  const member = info.data.isMember;
  return (
    <div className={member ? "vip-status member" : "vip-status"} data-testid="vip-status" data-member={member ? 1 : 0}>
      <div>
        <strong className="vip-status-line">
          {member
            ? `♛ ${t("vip.statusMember", { date: formatDateTime(info.data.memberEffectiveTime).slice(0, 10) })}`
            : t("vip.statusFree")}
        </strong>
        {storage.data && (
          <span className="muted">
            {t("vip.todayCap", { hours: formatDurationText(t, storage.data.timeLimitToday, "long") })}
          </span>
        )}
      </div>
      <Button variant="gold" onClick={() => openCashier({ defaultTab: "membership" })} data-testid="vip-join">
        {member ? t("vip.renew") : t("vip.join")}
      </Button>
    </div>
  );
}

/** The three plans, each with a buy button that opens the cashier on it. */
function Plans() {
  const { t } = useTranslation();
  const plans = usePayGoods(GoodsType.Membership);
  if (plans.isPending) return <Spinner />;
  if (plans.isError) return <ErrorState onRetry={() => void plans.refetch()} />;
  return (
    <div className="vip-plans">
      {plans.data.map((g) => (
        <div key={g.goodsId} className="vip-plan" data-testid={`vip-plan-${g.goodsId}`}>
          {g.cornerLabel && <span className="goods-corner">{g.cornerLabel}</span>}
          <span className="vip-plan-name">{g.goodsName}</span>
          <GoodsPrice goods={g} />
          <span className="muted vip-plan-summary">
            <GoodsSummary goods={g} />
          </span>
          <Button
            variant="gold"
            block
            onClick={() => openCashier({ defaultTab: "membership", goodsId: g.goodsId })}
            data-testid={`vip-buy-${g.goodsId}`}
          >
            {t("vip.buy")}
          </Button>
        </div>
      ))}
    </div>
  );
}

/** Spec §2 /vip: the membership state, the plans, the benefit comparison, and time cards. */
export function VipCenter() {
  const { t } = useTranslation();
  return (
    <div className="vip-center">
      <p className="muted">{t("vip.subtitle")}</p>
      <MembershipStatus />
      <section>
        <h2 className="section-title">{t("vip.plansTitle")}</h2>
        <Plans />
      </section>
      <section>
        <h2 className="section-title">{t("vip.compareTitle")}</h2>
        <BenefitTable />
      </section>
      <section className="vip-cards">
        <div>
          <h2 className="section-title">{t("vip.cardsTitle")}</h2>
          <p className="muted">{t("vip.cardsText")}</p>
        </div>
        <Button variant="secondary" onClick={() => openCashier({ defaultTab: "card" })} data-testid="vip-buy-cards">
          {t("vip.buyCards")}
        </Button>
      </section>
    </div>
  );
}
