import { useTranslation } from "react-i18next";
import { ProgressBar } from "../../components/ui/states.tsx";
import { hours, percent } from "../../lib/format.ts";
import { useStorageInfo } from "../account/api.ts";

/** Spec §3 storage info, derived: used and total in hours with a percent, for cards and for today. */
export function QuotaBars() {
  const { t } = useTranslation();
  const storage = useStorageInfo();
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
              {t("common.storageUsed", { used: hours(r.used), total: hours(r.total) })} · {percent(r.used, r.total)}%
            </span>
          </div>
          <ProgressBar value={percent(r.used, r.total)} label={r.label} />
        </div>
      ))}
    </div>
  );
}
