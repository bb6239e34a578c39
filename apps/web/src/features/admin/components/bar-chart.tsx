import { useId } from "react";
import { useTranslation } from "react-i18next";
import { chartScale, peakOf, sum } from "../lib/chart.ts";
// its data table, in the server-paged tables' style
import "@/components/ui/paged-table.css";

export interface ChartSeries {
  label: string;
  values: number[];
  /** a colour of the design tokens (the bars and the legend) */
  color: string;
}

const WIDTH = 600;
const HEIGHT = 140;
const TOP = 6;
const BOTTOM = 2;

/**
 * A small bar chart of daily figures: one or two series side by side per day. For screen readers
 * the SVG is one image whose description gives each series' total and peak; the numbers themselves
 * are in a table below it ('show as a table').
 */
export function BarChart({
  title,
  days,
  series,
  format,
  testId,
}: {
  title: string;
  days: string[];
  series: ChartSeries[];
  format: (value: number) => string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const plot = HEIGHT - TOP - BOTTOM;
  const scale = chartScale(
    series.flatMap((s) => s.values),
    plot,
  );
  const band = WIDTH / Math.max(1, days.length);
  const barWidth = Math.max(1, (band * 0.8) / series.length);
  const zeroY = TOP + scale.y(0);
  const summary = series
    .map((s) => {
      const peak = peakOf(days, s.values);
      const parts = [t("admin.chart.total", { value: format(sum(s.values)) })];
      if (peak && peak.value > 0) parts.push(t("admin.chart.peak", { value: format(peak.value), day: peak.day }));
      return `${series.length > 1 ? `${s.label}: ` : ""}${parts.join(", ")}`;
    })
    .join("; ");

  return (
    <figure className="admin-chart" data-testid={testId}>
      <figcaption className="admin-chart-head">
        <span className="admin-chart-title" id={`${id}-title`}>
          {title}
        </span>
        <span className="admin-chart-summary muted" id={`${id}-desc`} data-testid={testId && `${testId}-summary`}>
          {days.length === 0 ? t("admin.chart.noData") : summary}
        </span>
      </figcaption>
      {series.length > 1 && (
        <ul className="admin-chart-legend" aria-hidden>
          {series.map((s) => (
            <li key={s.label}>
              <span style={{ background: s.color }} />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <svg
        className="admin-chart-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
      >
        <title>{title}</title>
        <line x1={0} x2={WIDTH} y1={zeroY} y2={zeroY} className="admin-chart-axis" />
        {series.map((s, si) =>
          s.values.map((value, di) => {
            const y = TOP + scale.y(value);
            return (
              <rect
                // biome-ignore lint/suspicious/noArrayIndexKey: a day's bar is its position
                key={`${si}-${di}`}
                x={di * band + band * 0.1 + si * barWidth}
                y={Math.min(y, zeroY)}
                width={barWidth}
                height={Math.max(value === 0 ? 0 : 1, Math.abs(zeroY - y))}
                fill={s.color}
              >
                <title>{`${days[di]} ${s.label}: ${format(value)}`}</title>
              </rect>
            );
          }),
        )}
      </svg>
      {days.length > 0 && (
        <div className="admin-chart-days muted" aria-hidden>
          <span>{days[0]}</span>
          <span>{days.at(-1)}</span>
        </div>
      )}
      <details className="admin-chart-table">
        <summary>{t("admin.chart.showTable")}</summary>
        <div className="paged-table-scroll">
          <table className="paged-table">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.chart.day")}</th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className="num">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, di) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map((s) => (
                    <td key={s.label} className="num">
                      {format(s.values[di] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
