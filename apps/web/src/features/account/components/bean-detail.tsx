import type { BeanEntry } from "@yuelu/contracts";
import { clsx } from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { useAssets } from "@/lib/account.ts";
import { rewardDialog, shopDialog } from "@/lib/app-dialogs.ts";
import { formatDateTime } from "@/lib/format.ts";
import { useBeanDetail } from "../api/get-bean-detail.ts";
import "./bean-detail.css";

const PAGE_SIZE = 10;

/**
 * Spec §2 `?menu=coinDetail`: the bean balance and the ledger, newest first, paged — why, how many
 * (+ earned, − spent), the balance after, when. The balance leads to the shop and to the rewards.
 */
export function CoinDetail() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const detail = useBeanDetail(page, PAGE_SIZE);
  const assets = useAssets();
  const columns: Column<BeanEntry>[] = [
    { id: "reason", header: t("personal.beanReason"), kind: "name", cell: (e) => e.reasonName },
    {
      id: "amount",
      header: t("personal.beanAmount"),
      kind: "status",
      cell: (e) => (
        <span className={clsx("bean-amount", e.amount >= 0 ? "earned" : "spent")} data-testid="bean-amount">
          {e.amount > 0 ? `+${e.amount}` : String(e.amount)}
        </span>
      ),
    },
    {
      id: "balance",
      header: t("personal.beanBalanceAfter"),
      label: t("personal.beanBalanceAfter"),
      kind: "meta",
      cell: (e) => e.balanceAfter,
    },
    {
      id: "time",
      header: t("personal.beanTime"),
      label: t("personal.beanTime"),
      kind: "meta",
      cell: (e) => formatDateTime(e.createTime),
    },
  ];
  return (
    <section>
      <h2 className="section-title">{t("personal.coinDetail")}</h2>
      <div className="bean-summary">
        <span className="bean-coin" aria-hidden />
        <span className="muted">{t("personal.beanBalance")}</span>
        <strong data-testid="bean-balance">{assets.data?.allCoinNumber ?? "–"}</strong>
        <span className="bean-summary-actions">
          <Button size="sm" onClick={shopDialog.open} data-testid="bean-shop">
            {t("personal.goShop")}
          </Button>
          <Button size="sm" variant="secondary" onClick={rewardDialog.open}>
            {t("personal.earnBeans")}
          </Button>
        </span>
      </div>
      <DataTable<BeanEntry>
        rows={detail.data?.list ?? []}
        rowId={(e) => e.id}
        rowName={(e) => e.reasonName}
        rowTestId={(id) => `bean-${id}`}
        columns={columns}
        status={{ isPending: detail.isPending, isError: detail.isError, retry: () => void detail.refetch() }}
        empty={<EmptyState icon="●" text={t("personal.beanEmpty")} />}
        pagination={{ page, pageSize: PAGE_SIZE, total: detail.data?.total ?? 0, onPage: setPage }}
        testId="bean-list"
        phoneLabels
      />
    </section>
  );
}
