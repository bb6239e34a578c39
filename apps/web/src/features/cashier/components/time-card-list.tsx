import type { DurationCard } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { openCashier } from "@/lib/app-dialogs.ts";
import { formatDateTime, formatDurationText } from "@/lib/format.ts";
import { useDurationDetail, useTimeCards } from "../api/get-time-cards.ts";
import "./state-chip.css";
import "./time-card-list.css";

const PAGE_SIZE = 10;

function cardState(card: DurationCard): { key: string; tone: string } {
  if (card.expired) return { key: "timeCards.expired", tone: "tone-off" };
  if (card.remaining <= 0) return { key: "timeCards.usedUp", tone: "tone-off" };
  return { key: "timeCards.valid", tone: "tone-ok" };
}

/** The card time at a glance (get_duration_detail). */
function DurationSummary() {
  const { t } = useTranslation();
  const detail = useDurationDetail();
  if (!detail.data) return null;
  const d = detail.data;
  const figures: [string, string, string][] = [
    ["remaining", t("timeCards.remaining"), formatDurationText(t, d.remaining)],
    ["total", t("timeCards.total"), formatDurationText(t, d.total)],
    ["used", t("timeCards.used"), formatDurationText(t, d.used)],
    ["expiringSoon", t("timeCards.expiringSoon"), formatDurationText(t, d.expiringSoon)],
    [
      "nextExpire",
      t("timeCards.nextExpire"),
      d.nextExpireTime > 0 ? formatDateTime(d.nextExpireTime).slice(0, 10) : "–",
    ],
  ];
  return (
    <div className="card-summary" data-testid="duration-detail">
      <dl className="card-figures">
        {figures.map(([id, label, value]) => (
          <div key={id} data-testid={`duration-${id}`}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {d.bySource.length > 0 && (
        <ul className="chips" aria-label={t("timeCards.bySource")}>
          {d.bySource.map((s) => (
            <li key={s.source} className="chip">
              {s.sourceName} · {formatDurationText(t, s.remaining)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** /personalInfo 'my time cards': the summary and every card (used up and expired too), paged. */
export function TimeCardList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const cards = useTimeCards(page, PAGE_SIZE);
  const columns: Column<DurationCard>[] = [
    { id: "source", header: t("timeCards.source"), kind: "name", cell: (c) => c.sourceName },
    {
      id: "state",
      header: t("timeCards.state"),
      kind: "status",
      cell: (c) => {
        const state = cardState(c);
        return <span className={`state-chip ${state.tone}`}>{t(state.key)}</span>;
      },
    },
    {
      id: "left",
      header: t("timeCards.left"),
      label: t("timeCards.left"),
      kind: "meta",
      cell: (c) =>
        t("timeCards.leftOf", { left: formatDurationText(t, c.remaining), total: formatDurationText(t, c.seconds) }),
    },
    {
      id: "granted",
      header: t("timeCards.granted"),
      label: t("timeCards.granted"),
      kind: "meta",
      cell: (c) => formatDateTime(c.createTime),
    },
    {
      id: "expires",
      header: t("timeCards.expires"),
      label: t("timeCards.expires"),
      kind: "meta",
      cell: (c) => formatDateTime(c.expireTime),
    },
  ];
  return (
    <section className="time-cards">
      <div className="time-cards-head">
        <h2 className="section-title">{t("timeCards.title")}</h2>
        <Button size="sm" onClick={() => openCashier({ defaultTab: "card" })} data-testid="buy-time-cards">
          {t("timeCards.buy")}
        </Button>
      </div>
      <DurationSummary />
      <DataTable<DurationCard>
        rows={cards.data?.list ?? []}
        rowId={(c) => c.cardId}
        rowName={(c) => c.sourceName}
        rowTestId={(id) => `time-card-${id}`}
        columns={columns}
        status={{ isPending: cards.isPending, isError: cards.isError, retry: () => void cards.refetch() }}
        empty={<EmptyState icon="◷" text={t("timeCards.empty")} />}
        pagination={{ page, pageSize: PAGE_SIZE, total: cards.data?.total ?? 0, onPage: setPage }}
        testId="time-card-list"
        phoneLabels
      />
    </section>
  );
}
