import type { AdminFigures } from "@yuelu/contracts";
import { type ReactNode, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useFigures, useQueues, useVersion } from "../api/system.ts";
import { addDays, dayIn, formatCount } from "../lib/format.ts";
import { formatYuan } from "../lib/money.ts";
import { AdminSection } from "./admin-layout.tsx";
import { BarChart } from "./bar-chart.tsx";
import { QueueDepths } from "./queue-depths.tsx";

const RANGES = [7, 30, 90] as const;

/** The overview: daily figures as charts (each with its table), the install's version and the queues. */
export function Overview() {
  const { t } = useTranslation();
  const rangeId = useId();
  const [days, setDays] = useState<number>(30);
  // The server's days are its business time zone's: the last 30 are its default; another period
  // ends on its today, which the install's time zone (GET /admin/system/version) tells.
  const timeZone = useVersion().data?.businessTimeZone;
  const today = timeZone ? dayIn(timeZone) : null;
  const range = days === 30 ? {} : today ? { from: addDays(today, 1 - days), to: today } : null;
  const figures = useFigures(range);

  return (
    <>
      <AdminSection
        title={t("admin.overview.totals")}
        actions={
          <label className="admin-inline-field" htmlFor={rangeId}>
            <span className="field-label">{t("admin.overview.range")}</span>
            <select
              id={rangeId}
              className="input select"
              value={days}
              onChange={(e) => setDays(Number(e.target.value))}
              data-testid="overview-range"
            >
              {RANGES.map((n) => (
                <option key={n} value={n}>
                  {t("admin.overview.days", { count: n })}
                </option>
              ))}
            </select>
          </label>
        }
        testId="overview-figures"
      >
        {figures.data ? (
          <Figures figures={figures.data} />
        ) : figures.isError ? (
          <ErrorState onRetry={() => void figures.refetch()} />
        ) : (
          <Spinner />
        )}
      </AdminSection>
      <div className="admin-grid">
        <InstallCard />
        <AdminSection title={t("admin.overview.queues")} testId="overview-queues">
          <QueuesCard />
        </AdminSection>
      </div>
    </>
  );
}

function Figures({ figures }: { figures: AdminFigures }) {
  const { t } = useTranslation();
  const days = figures.days.map((d) => d.day);
  const totals = figures.totals;
  const count = (n: number) => formatCount(n);
  return (
    <>
      <dl className="admin-stats" data-testid="overview-totals">
        <Stat label={t("admin.overview.signUps")} value={count(totals.signUps)} />
        <Stat label={t("admin.overview.minutes")} value={count(totals.minutesTranscribed)} />
        <Stat label={t("admin.overview.paid")} value={formatYuan(totals.paidFen)} />
        <Stat label={t("admin.overview.refunded")} value={formatYuan(totals.refundedFen)} />
        <Stat label={t("admin.overview.revenue")} value={formatYuan(totals.revenueFen)} />
        <Stat label={t("admin.overview.beansIssued")} value={count(totals.beansIssued)} />
        <Stat label={t("admin.overview.beansSpent")} value={count(totals.beansSpent)} />
      </dl>
      <p className="muted admin-note">{t("admin.overview.timeZone", { zone: figures.timeZone })}</p>
      <div className="admin-grid admin-charts">
        <BarChart
          title={t("admin.overview.signUps")}
          days={days}
          series={[
            { label: t("admin.overview.signUps"), values: figures.days.map((d) => d.signUps), color: "#2f5ae0" },
          ]}
          format={count}
          testId="chart-signups"
        />
        <BarChart
          title={t("admin.overview.minutes")}
          days={days}
          series={[
            {
              label: t("admin.overview.minutes"),
              values: figures.days.map((d) => d.minutesTranscribed),
              color: "#0f766e",
            },
          ]}
          format={count}
          testId="chart-minutes"
        />
        <BarChart
          title={t("admin.overview.revenue")}
          days={days}
          series={[
            { label: t("admin.overview.revenue"), values: figures.days.map((d) => d.revenueFen), color: "#b04d0c" },
          ]}
          format={formatYuan}
          testId="chart-revenue"
        />
        <BarChart
          title={t("admin.overview.beans")}
          days={days}
          series={[
            {
              label: t("admin.overview.beansIssued"),
              values: figures.days.map((d) => d.beansIssued),
              color: "#8f6419",
            },
            { label: t("admin.overview.beansSpent"), values: figures.days.map((d) => d.beansSpent), color: "#7c3aed" },
          ]}
          format={count}
          testId="chart-beans"
        />
      </div>
    </>
  );
}

export function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className="admin-stat" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function InstallCard() {
  const { t } = useTranslation();
  const version = useVersion();
  const v = version.data;
  return (
    <AdminSection title={t("admin.overview.install")} testId="overview-install">
      {v ? (
        <dl className="admin-stats admin-stats-small">
          <Stat label={t("admin.overview.versionLabel")} value={v.version} testId="install-version" />
          <Stat label={t("admin.overview.node")} value={v.node} />
          <Stat
            label={t("admin.overview.uptime")}
            value={t("admin.overview.uptimeValue", {
              days: Math.floor(v.uptimeSeconds / 86_400),
              hours: Math.floor((v.uptimeSeconds % 86_400) / 3600),
            })}
          />
          <Stat label={t("admin.overview.queueBackend")} value={v.queueBackend} />
          <Stat label={t("admin.overview.fileStore")} value={v.fileStore} />
          <Stat label={t("admin.overview.payment")} value={v.paymentProvider} />
        </dl>
      ) : version.isError ? (
        <ErrorState onRetry={() => void version.refetch()} />
      ) : (
        <Spinner />
      )}
    </AdminSection>
  );
}

function QueuesCard() {
  const queues = useQueues();
  if (queues.data) return <QueueDepths queues={queues.data.queues} />;
  if (queues.isError) return <ErrorState onRetry={() => void queues.refetch()} />;
  return <Spinner />;
}
