import type { AdminGiftBatch, AdminGiftCode, AdminGiftKind } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import {
  type GiftBatchFilter,
  type GiftCodeFilter,
  giftExportUrl,
  useDisableGifts,
  useGiftBatches,
  useGiftCodes,
} from "../api/gifts.ts";
import { formatCount, formatDate, formatInstant } from "../lib/format.ts";
import { AdminSection } from "./admin-layout.tsx";
import { GiftBatchForm } from "./gift-batch-form.tsx";
import { GiftRedemptionsDialog } from "./gift-redemptions-dialog.tsx";

type Disabling = { batch: string; disabled: boolean } | { code: AdminGiftCode; disabled: boolean };

/**
 * Gift codes: create a batch, the batches with their usage, and the codes of one batch (or all). The
 * server lists codes masked (AB****YZ); an operator gets them whole right after creating a batch
 * (gift-batch-form.tsx) or from the batch's CSV export, which the audit log records.
 */
export function GiftsView() {
  const { t } = useTranslation();
  const batches = useTableState<GiftBatchFilter>({ sort: "createdAt", filters: ["q"] }, "batches");
  const codes = useTableState<GiftCodeFilter>({ sort: "createdAt", filters: ["batch", "code", "status"] }, "codes");
  const batchList = useGiftBatches(batches.query);
  const codeList = useGiftCodes(codes.query);
  const disable = useDisableGifts();
  const [disabling, setDisabling] = useState<Disabling | null>(null);
  const [showing, setShowing] = useState<AdminGiftCode | null>(null);

  const showBatch = (batch: string) => {
    codes.setFilters({ batch, code: "", status: "" });
    document.getElementById("gift-codes")?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  const rewardText = (kind: AdminGiftKind, reward: number) =>
    t(`admin.gifts.rewardValue.${kind}`, { value: formatCount(reward) });
  const run = (target: Disabling) =>
    disable.mutate("batch" in target ? target : { codeId: target.code.id, disabled: target.disabled }, {
      onSuccess: (r) => {
        toast.success(
          t(target.disabled ? "admin.gifts.disabledToast" : "admin.gifts.enabledToast", { count: r.changed }),
        );
        setDisabling(null);
      },
    });

  const batchColumns: PagedColumn<AdminGiftBatch>[] = [
    {
      id: "batch",
      header: t("admin.gifts.batch"),
      sort: "batch",
      cell: (b) => (
        <button type="button" className="admin-link admin-mono" onClick={() => showBatch(b.batch)}>
          {b.batch || "—"}
        </button>
      ),
    },
    { id: "reward", header: t("admin.gifts.rewardCol"), cell: (b) => rewardText(b.kind, b.reward) },
    {
      id: "codes",
      header: t("admin.gifts.codeCount"),
      sort: "codes",
      numeric: true,
      cell: (b) => formatCount(b.codes),
    },
    {
      id: "redeemedCodes",
      header: t("admin.gifts.redeemedCodes"),
      numeric: true,
      cell: (b) => formatCount(b.redeemedCodes),
    },
    {
      id: "uses",
      header: t("admin.gifts.uses"),
      sort: "uses",
      numeric: true,
      cell: (b) => <span data-testid="batch-uses">{t("admin.gifts.usesOf", { uses: b.uses, max: b.maxUses })}</span>,
    },
    {
      id: "disabled",
      header: t("admin.gifts.disabledCodes"),
      numeric: true,
      cell: (b) => (b.disabledCodes > 0 ? <Tag tone="off">{b.disabledCodes}</Tag> : 0),
    },
    {
      id: "createdAt",
      header: t("admin.field.createdAt"),
      sort: "createdAt",
      cell: (b) => <span className="admin-nowrap">{formatInstant(b.createdAt)}</span>,
    },
    {
      id: "expires",
      header: t("admin.gifts.expires"),
      cell: (b) => formatDate(b.expiresAt) || t("admin.gifts.noExpiry"),
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (b) => (
        <span className="admin-actions">
          <Button size="sm" variant="secondary" onClick={() => showBatch(b.batch)}>
            {t("admin.gifts.viewCodes")}
          </Button>
          <a className="btn btn-ghost btn-sm" href={giftExportUrl(b.batch)} download>
            {t("admin.gifts.exportCsv")}
          </a>
          {b.disabledCodes < b.codes ? (
            <Button size="sm" variant="ghost" onClick={() => setDisabling({ batch: b.batch, disabled: true })}>
              {t("admin.gifts.disableBatch")}
            </Button>
          ) : (
            <Button
              size="sm"
              variant="ghost"
              disabled={disable.isPending}
              onClick={() => run({ batch: b.batch, disabled: false })}
            >
              {t("admin.gifts.enableBatch")}
            </Button>
          )}
        </span>
      ),
    },
  ];

  const codeColumns: PagedColumn<AdminGiftCode>[] = [
    {
      id: "code",
      header: t("admin.gifts.code"),
      sort: "packCode",
      cell: (c) => <code className="admin-mono">{c.packCode}</code>,
    },
    { id: "batch", header: t("admin.gifts.batch"), cell: (c) => <span className="admin-mono">{c.batch || "—"}</span> },
    { id: "reward", header: t("admin.gifts.rewardCol"), cell: (c) => rewardText(c.kind, c.reward) },
    {
      id: "redeemed",
      header: t("admin.gifts.redeemed"),
      sort: "redeemedCount",
      numeric: true,
      cell: (c) => (
        <span data-testid="code-uses">{t("admin.gifts.usesOf", { uses: c.redeemedCount, max: c.maxRedemptions })}</span>
      ),
    },
    {
      id: "status",
      header: t("admin.field.status"),
      cell: (c) => (
        <Tag tone={c.status === "active" ? "ok" : c.status === "disabled" ? "off" : undefined}>
          {t(`admin.gifts.statuses.${c.status}`)}
        </Tag>
      ),
    },
    {
      id: "expires",
      header: t("admin.gifts.expires"),
      cell: (c) => formatDate(c.expiresAt) || t("admin.gifts.noExpiry"),
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (c) => (
        <span className="admin-actions">
          {c.redeemedCount > 0 && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setShowing(c)}
              data-testid={`code-redemptions-${c.id}`}
            >
              {t("admin.gifts.redemptions")}
            </Button>
          )}
          {c.disabledAt ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={disable.isPending}
              onClick={() => run({ code: c, disabled: false })}
            >
              {t("admin.act.enable")}
            </Button>
          ) : (
            <Button size="sm" variant="ghost" onClick={() => setDisabling({ code: c, disabled: true })}>
              {t("admin.act.disable")}
            </Button>
          )}
        </span>
      ),
    },
  ];

  return (
    <>
      <AdminSection title={t("admin.gifts.create")} testId="gift-create">
        <GiftBatchForm onShowBatch={showBatch} />
      </AdminSection>
      <AdminSection title={t("admin.gifts.batches")} testId="gift-batches">
        <FilterBar
          values={batches.filters}
          onApply={batches.setFilters}
          fields={[{ name: "q", label: t("admin.gifts.search") }]}
        />
        <PagedTable
          caption={t("admin.gifts.batches")}
          testId="batches-table"
          columns={batchColumns}
          rowKey={(b) => b.batch}
          rowTestId={(b) => `batch-${b.batch}`}
          result={batchList}
          sort={batches.query.sort}
          order={batches.query.order}
          onSort={batches.sortBy}
          pager={{ ...batches.query, onPage: batches.setPage, onPageSize: batches.setPageSize }}
        />
      </AdminSection>
      <div id="gift-codes">
        <AdminSection
          title={
            codes.filters.batch ? t("admin.gifts.codesOf", { batch: codes.filters.batch }) : t("admin.gifts.codes")
          }
          testId="gift-codes"
        >
          {/* the list shows codes masked; the batch's CSV (audited) has them whole */}
          <p className="field-hint" data-testid="gift-codes-masked">
            {t("admin.gifts.maskedHint")}
          </p>
          <FilterBar
            values={codes.filters}
            onApply={codes.setFilters}
            fields={[
              { name: "batch", label: t("admin.gifts.batch") },
              { name: "code", label: t("admin.gifts.searchCode") },
              {
                name: "status",
                label: t("admin.field.status"),
                type: "select",
                options: (["active", "usedUp", "expired", "disabled"] as const).map((s) => ({
                  value: s,
                  label: t(`admin.gifts.statuses.${s}`),
                })),
              },
            ]}
          />
          <PagedTable
            caption={t("admin.gifts.codes")}
            testId="codes-table"
            columns={codeColumns}
            rowKey={(c) => c.id}
            rowTestId={(c) => `code-${c.id}`}
            result={codeList}
            sort={codes.query.sort}
            order={codes.query.order}
            onSort={codes.sortBy}
            pager={{ ...codes.query, onPage: codes.setPage, onPageSize: codes.setPageSize }}
          />
        </AdminSection>
      </div>
      <ConfirmDialog
        open={disabling?.disabled === true}
        title={
          disabling && "batch" in disabling
            ? t("admin.gifts.disableBatchTitle", { batch: disabling.batch })
            : t("admin.gifts.disableCodeTitle", {
                code: disabling && "code" in disabling ? disabling.code.packCode : "",
              })
        }
        text={disabling && "batch" in disabling ? t("admin.gifts.disableBatchText") : t("admin.gifts.disableCodeText")}
        confirmLabel={t("admin.act.disable")}
        danger
        pending={disable.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && run(disabling)}
      />
      <GiftRedemptionsDialog code={showing} onClose={() => setShowing(null)} />
    </>
  );
}
