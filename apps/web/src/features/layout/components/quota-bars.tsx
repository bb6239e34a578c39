import { useTranslation } from "react-i18next";
import { ProgressBar } from "@/components/ui/states.tsx";
import { useStorageInfo, useUserInfo } from "@/lib/account.ts";
import { openCashier } from "@/lib/app-dialogs.ts";
import { formatDurationText, percent, percentText } from "@/lib/format.ts";
import "./quota-bars.css";

/**
 * Spec §3 storage info, derived: used and total with a percent, for the time cards and for today.
 * Time under an hour reads in minutes ('12 分钟 / 3 小时'), so a little use never shows as 0.
 * Below them: buy time (the cashier's card tab) and, for non-members, membership (a higher daily cap).
 */
export function QuotaBars() {
  const { t } = useTranslation();
  const storage = useStorageInfo();
  const info = useUserInfo();
  if (!storage.data) {
    return (
      <div className="quota" data-testid="quota-loading" aria-busy="true">
        <span className="muted">{t("common.loading")}</span>
      </div>
    );
  }
  const s = storage.data;
  const rows = [
    { label: t("common.storage"), used: s.timeUsed, total: s.timeLimit, id: "total" },
    { label: t("common.storageToday"), used: s.timeUsedToday, total: s.timeLimitToday, id: "today" },
  ];
  return (
    <div className="quota" data-testid="quota">
      {rows.map((r) => (
        <div key={r.id} className="quota-row" data-testid={`quota-${r.id}`}>
          <div className="quota-head">
            <span>{r.label}</span>
            <span className="muted">
              {t("common.storageUsed", {
                used: formatDurationText(t, r.used),
                total: formatDurationText(t, r.total),
              })}{" "}
              · {percentText(r.used, r.total)}
            </span>
          </div>
          <ProgressBar value={percent(r.used, r.total)} label={r.label} />
        </div>
      ))}
      <div className="quota-actions">
        <button
          type="button"
          className="link-button"
          onClick={() => openCashier({ defaultTab: "card" })}
          data-testid="quota-buy-time"
        >
          {t("common.buyTime")}
        </button>
        {info.data && !info.data.isMember && (
          <button
            type="button"
            className="link-button"
            onClick={() => openCashier({ defaultTab: "membership" })}
            data-testid="quota-upgrade"
          >
            {t("common.openVip")}
          </button>
        )}
      </div>
    </div>
  );
}
