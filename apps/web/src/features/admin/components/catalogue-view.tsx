import type { AdminPayGoods, AdminShopGoods } from "@yuelu/contracts";
import { clsx } from "clsx";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { formatDurationText } from "@/lib/format.ts";
import {
  type PayGoodsFilter,
  type ShopGoodsFilter,
  usePayGoods,
  useReorderGoods,
  useSavePayGoods,
  useSaveShopGoods,
  useShopGoods,
} from "../api/catalogue.ts";
import { formatCount } from "../lib/format.ts";
import { formatYuan } from "../lib/money.ts";
import { moveId } from "../lib/reorder.ts";
import { AdminSection } from "./admin-layout.tsx";
import { PayGoodsDialog } from "./pay-goods-dialog.tsx";
import { ShopGoodsDialog } from "./shop-goods-dialog.tsx";

const TABS = ["plans", "cards", "shop"] as const;
type Tab = (typeof TABS)[number];

/** The catalogue: membership plans, duration cards and the bean shop, each a tab. */
export function CatalogueView() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const param = search.get("tab");
  const tab: Tab = TABS.includes(param as Tab) ? (param as Tab) : "plans";
  return (
    <>
      <div className="tabs-list" role="tablist" aria-label={t("admin.catalogue.title")}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            className="tabs-trigger"
            data-state={tab === name ? "active" : "inactive"}
            aria-selected={tab === name}
            onClick={() => setSearch(name === "plans" ? {} : { tab: name }, { replace: true })}
            data-testid={`catalogue-tab-${name}`}
          >
            {t(`admin.catalogue.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === "plans" && <PayGoodsTab key="plans" goodsType={1} />}
        {tab === "cards" && <PayGoodsTab key="cards" goodsType={0} />}
        {tab === "shop" && <ShopGoodsTab />}
      </div>
    </>
  );
}

const enabledOptions = (t: (k: string) => string) => [
  { value: "true", label: t("admin.field.enabled") },
  { value: "false", label: t("admin.field.disabled") },
];

/** ↑ ↓ in the sort column: only while every goods of the tab is on the page, in its shown order. */
function MoveButtons({
  ids,
  index,
  onMove,
  disabled,
}: {
  ids: number[];
  index: number;
  onMove: (ids: number[]) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <span className="admin-actions">
      <Button
        size="sm"
        variant="ghost"
        aria-label={t("admin.act.moveUp")}
        disabled={disabled || index === 0}
        onClick={() => onMove(moveId(ids, index, -1))}
      >
        ↑
      </Button>
      <Button
        size="sm"
        variant="ghost"
        aria-label={t("admin.act.moveDown")}
        disabled={disabled || index === ids.length - 1}
        onClick={() => onMove(moveId(ids, index, 1))}
      >
        ↓
      </Button>
    </span>
  );
}

function PayGoodsTab({ goodsType }: { goodsType: 0 | 1 }) {
  const { t } = useTranslation();
  const prefix = goodsType === 1 ? "plans" : "cards";
  const table = useTableState<PayGoodsFilter>({ sort: "sort", order: "asc", filters: ["enabled", "q"] }, prefix);
  const goods = usePayGoods(goodsType, table.query);
  const save = useSavePayGoods();
  const reorder = useReorderGoods("pay");
  const [editing, setEditing] = useState<AdminPayGoods | "new" | null>(null);
  const [disabling, setDisabling] = useState<AdminPayGoods | null>(null);
  const rows = goods.data?.items ?? [];
  const ids = rows.map((g) => g.goodsId);
  const canReorder =
    table.query.sort === "sort" &&
    table.query.order === "asc" &&
    !table.filters.enabled &&
    !table.filters.q &&
    (goods.data?.total ?? 0) <= rows.length;

  const setEnabled = (g: AdminPayGoods, enabled: boolean) =>
    save.mutate(
      { goodsId: g.goodsId, edit: { enabled } },
      {
        onSuccess: () => {
          toast.success(enabled ? t("admin.catalogue.enabledToast") : t("admin.catalogue.disabledToast"));
          setDisabling(null);
        },
      },
    );

  const columns: PagedColumn<AdminPayGoods>[] = [
    {
      id: "sort",
      header: t("admin.field.sort"),
      sort: "sort",
      cell: (g) =>
        canReorder ? (
          <MoveButtons
            ids={ids}
            index={ids.indexOf(g.goodsId)}
            onMove={(next) => reorder.mutate(next)}
            disabled={reorder.isPending}
          />
        ) : (
          g.sort
        ),
    },
    { id: "id", header: t("admin.field.id"), sort: "goodsId", numeric: true, cell: (g) => g.goodsId },
    {
      id: "name",
      header: t("admin.catalogue.name"),
      sort: "goodsName",
      cell: (g) => (
        <>
          {g.goodsName}
          <div className="muted">{g.goodsNameEn}</div>
        </>
      ),
    },
    {
      id: "price",
      header: t("admin.catalogue.price"),
      sort: "priceFen",
      numeric: true,
      cell: (g) => <span data-testid="goods-price-cell">{formatYuan(g.priceFen)}</span>,
    },
    {
      id: "original",
      header: t("admin.catalogue.originalPrice"),
      numeric: true,
      cell: (g) => formatYuan(g.originalPriceFen),
    },
    goodsType === 1
      ? { id: "days", header: t("admin.catalogue.memberDays"), numeric: true, cell: (g) => g.memberDays }
      : {
          id: "time",
          header: t("admin.catalogue.durationHours"),
          numeric: true,
          cell: (g) => formatDurationText(t, g.duration),
        },
    {
      id: "flags",
      header: t("admin.field.status"),
      cell: (g) => (
        <span className="admin-actions">
          <Tag tone={g.enabled ? "ok" : "off"}>{g.enabled ? t("admin.field.enabled") : t("admin.field.disabled")}</Tag>
          {g.inShop && <Tag>{t("admin.catalogue.shop")}</Tag>}
        </span>
      ),
    },
    { id: "orders", header: t("admin.catalogue.orders"), numeric: true, cell: (g) => `${g.orders} (${g.paidOrders})` },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (g) => (
        <span className="admin-actions">
          <Button size="sm" variant="secondary" onClick={() => setEditing(g)} data-testid={`edit-goods-${g.goodsId}`}>
            {t("admin.act.edit")}
          </Button>
          {g.enabled ? (
            <Button size="sm" variant="ghost" onClick={() => setDisabling(g)}>
              {t("admin.act.disable")}
            </Button>
          ) : (
            <Button size="sm" variant="ghost" disabled={save.isPending} onClick={() => setEnabled(g, true)}>
              {t("admin.act.enable")}
            </Button>
          )}
        </span>
      ),
    },
  ];

  return (
    <AdminSection
      title={t(`admin.catalogue.${prefix}`)}
      actions={
        <Button onClick={() => setEditing("new")} data-testid={`new-${prefix}`}>
          {t(goodsType === 1 ? "admin.catalogue.newPlan" : "admin.catalogue.newCard")}
        </Button>
      }
      testId={`catalogue-${prefix}`}
    >
      <p className="field-hint">{t("admin.catalogue.priceNote")}</p>
      <CatalogueFilters values={table.filters} onApply={table.setFilters} />
      <PagedTable
        caption={t(`admin.catalogue.${prefix}`)}
        testId={`${prefix}-table`}
        columns={columns}
        rowKey={(g) => g.goodsId}
        rowTestId={(g) => `goods-${g.goodsId}`}
        result={goods}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <PayGoodsDialog
        goodsType={goodsType}
        goods={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <DisableGoodsDialog
        name={disabling?.goodsName}
        pending={save.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && setEnabled(disabling, false)}
      />
    </AdminSection>
  );
}

function CatalogueFilters({
  values,
  onApply,
}: {
  values: Record<string, string>;
  onApply: (v: Record<string, string>) => void;
}) {
  const { t } = useTranslation();
  return (
    <FilterBar
      values={values}
      onApply={onApply}
      fields={[
        { name: "q", label: t("admin.catalogue.search") },
        { name: "enabled", label: t("admin.field.status"), type: "select", options: enabledOptions(t) },
      ]}
    />
  );
}

function DisableGoodsDialog({
  name,
  pending,
  onClose,
  onConfirm,
}: {
  name: string | undefined;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      open={name !== undefined}
      title={t("admin.catalogue.disableConfirmTitle", { name: name ?? "" })}
      text={t("admin.catalogue.disableConfirmText")}
      confirmLabel={t("admin.act.disable")}
      danger
      pending={pending}
      onClose={onClose}
      onConfirm={onConfirm}
    />
  );
}

function ShopGoodsTab() {
  const { t } = useTranslation();
  const table = useTableState<ShopGoodsFilter>({ sort: "sort", order: "asc", filters: ["enabled", "q"] }, "shop");
  const goods = useShopGoods(table.query);
  const save = useSaveShopGoods();
  const reorder = useReorderGoods("shop");
  const [editing, setEditing] = useState<AdminShopGoods | "new" | null>(null);
  const [disabling, setDisabling] = useState<AdminShopGoods | null>(null);
  const rows = goods.data?.items ?? [];
  const ids = rows.map((g) => g.goodsId);
  const canReorder =
    table.query.sort === "sort" &&
    table.query.order === "asc" &&
    !table.filters.enabled &&
    !table.filters.q &&
    (goods.data?.total ?? 0) <= rows.length;
  const setEnabled = (g: AdminShopGoods, enabled: boolean) =>
    save.mutate(
      { goodsId: g.goodsId, edit: { enabled } },
      {
        onSuccess: () => {
          toast.success(enabled ? t("admin.catalogue.enabledToast") : t("admin.catalogue.disabledToast"));
          setDisabling(null);
        },
      },
    );
  const coins = (g: AdminShopGoods): ReactNode =>
    g.discount ? (
      <>
        {formatCount(g.exchangeCoin)} <del className="muted">{formatCount(g.originalCoin)}</del>
      </>
    ) : (
      formatCount(g.originalCoin)
    );

  const columns: PagedColumn<AdminShopGoods>[] = [
    {
      id: "sort",
      header: t("admin.field.sort"),
      sort: "sort",
      cell: (g) =>
        canReorder ? (
          <MoveButtons
            ids={ids}
            index={ids.indexOf(g.goodsId)}
            onMove={(next) => reorder.mutate(next)}
            disabled={reorder.isPending}
          />
        ) : (
          g.sort
        ),
    },
    { id: "id", header: t("admin.field.id"), sort: "goodsId", numeric: true, cell: (g) => g.goodsId },
    {
      id: "name",
      header: t("admin.catalogue.name"),
      sort: "goodsName",
      cell: (g) => (
        <>
          {g.goodsName}
          <div className="muted">{g.goodsNameEn}</div>
        </>
      ),
    },
    {
      id: "time",
      header: t("admin.catalogue.durationHours"),
      numeric: true,
      cell: (g) => formatDurationText(t, g.duration),
    },
    { id: "coins", header: t("admin.catalogue.coins"), sort: "exchangeCoin", numeric: true, cell: coins },
    {
      id: "enabled",
      header: t("admin.field.status"),
      cell: (g) => (
        <Tag tone={g.enabled ? "ok" : "off"}>{g.enabled ? t("admin.field.enabled") : t("admin.field.disabled")}</Tag>
      ),
    },
    { id: "purchases", header: t("admin.catalogue.purchases"), numeric: true, cell: (g) => formatCount(g.purchases) },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (g) => (
        <span className={clsx("admin-actions")}>
          <Button size="sm" variant="secondary" onClick={() => setEditing(g)}>
            {t("admin.act.edit")}
          </Button>
          {g.enabled ? (
            <Button size="sm" variant="ghost" onClick={() => setDisabling(g)}>
              {t("admin.act.disable")}
            </Button>
          ) : (
            <Button size="sm" variant="ghost" disabled={save.isPending} onClick={() => setEnabled(g, true)}>
              {t("admin.act.enable")}
            </Button>
          )}
        </span>
      ),
    },
  ];
  return (
    <AdminSection
      title={t("admin.catalogue.shop")}
      actions={<Button onClick={() => setEditing("new")}>{t("admin.catalogue.newShop")}</Button>}
      testId="catalogue-shop"
    >
      <CatalogueFilters values={table.filters} onApply={table.setFilters} />
      <PagedTable
        caption={t("admin.catalogue.shop")}
        testId="shop-table"
        columns={columns}
        rowKey={(g) => g.goodsId}
        result={goods}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <ShopGoodsDialog
        goods={editing === "new" ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <DisableGoodsDialog
        name={disabling?.goodsName}
        pending={save.isPending}
        onClose={() => setDisabling(null)}
        onConfirm={() => disabling && setEnabled(disabling, false)}
      />
    </AdminSection>
  );
}
