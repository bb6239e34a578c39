import type { AdminBeanEntry, AdminUserDetail } from "@yuelu/contracts";
import { StatusCode } from "@yuelu/contracts/constants";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { ApiError } from "@/lib/api-client.ts";
import { formatDurationText, formatSize } from "@/lib/format.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { useBeanLedger, useSetUserDisabled, useUser } from "../api/users.ts";
import { adminPath } from "../lib/areas.ts";
import { formatCount, formatInstant } from "../lib/format.ts";
import { formatYuan } from "../lib/money.ts";
import { AdminPage, AdminSection } from "./admin-layout.tsx";
import { GrantDialog } from "./grant-dialog.tsx";
import { OrderStatusTag } from "./order-status.tsx";
import { Stat } from "./overview.tsx";
import { ReasonDialog } from "./reason-dialog.tsx";
import { MembershipText, UserStatusTag } from "./user-tags.tsx";

/** One user: membership, cards, beans, orders, storage and grants; grant, disable or enable. */
export function UserDetail({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const user = useUser(userId);
  const back = (
    <Link to={adminPath("users")} className="btn btn-ghost btn-sm">
      ← {t("admin.act.back")}
    </Link>
  );
  let body: ReactNode;
  if (userId <= 0) body = <EmptyState text={t("admin.users.notFound")} />;
  else if (user.data) body = <UserBody user={user.data} />;
  else if (user.isPending) body = <Spinner />;
  else if (
    user.error instanceof ApiError &&
    (user.error.code === StatusCode.RecordNotFound || user.error.code === StatusCode.InvalidParams)
  )
    body = <EmptyState text={t("admin.users.notFound")} />;
  else body = <ErrorState onRetry={() => void user.refetch()} />;
  return (
    <AdminPage
      title={
        <>
          {back} {t("admin.users.detailTitle", { id: userId })}
        </>
      }
      actions={user.data && <UserActions user={user.data} />}
      testId="admin-user"
    >
      {body}
    </AdminPage>
  );
}

function UserActions({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const [granting, setGranting] = useState(false);
  const [statusOpen, setStatusOpen] = useState(false);
  const setDisabled = useSetUserDisabled(user.id);
  const disabled = user.disabledAt !== null;
  return (
    <>
      <Button onClick={() => setGranting(true)} data-testid="user-grant">
        {t("admin.users.grant")}
      </Button>
      <Button
        variant={disabled ? "secondary" : "danger"}
        onClick={() => setStatusOpen(true)}
        data-testid="user-status-toggle"
      >
        {disabled ? t("admin.users.enable") : t("admin.users.disable")}
      </Button>
      <GrantDialog userId={user.id} open={granting} onClose={() => setGranting(false)} />
      <ReasonDialog
        open={statusOpen}
        title={t(disabled ? "admin.users.enableTitle" : "admin.users.disableTitle", { id: user.id })}
        text={t(disabled ? "admin.users.enableText" : "admin.users.disableText")}
        confirmLabel={disabled ? t("admin.users.enable") : t("admin.users.disable")}
        danger={!disabled}
        pending={setDisabled.isPending}
        onClose={() => setStatusOpen(false)}
        onConfirm={(reason) =>
          setDisabled.mutate(
            { disabled: !disabled, reason },
            {
              onSuccess: (result) => {
                toast.success(
                  disabled
                    ? t("admin.users.enabledToast")
                    : t("admin.users.disabledToast", { count: result.sessionsEnded }),
                );
                setStatusOpen(false);
              },
            },
          )
        }
      />
    </>
  );
}

function UserBody({ user }: { user: AdminUserDetail }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <AdminSection
        title={
          <>
            {user.phone ?? "—"} · {displayNickname(user.nickName, i18n.language)}{" "}
            <Tag tone={user.role === "admin" ? "brand" : undefined}>{t(`admin.users.roles.${user.role}`)}</Tag>{" "}
            <UserStatusTag user={user} />
          </>
        }
        testId="user-summary"
      >
        {user.disabledAt && user.disabledReason && (
          <p className="danger-text">{t("admin.users.disabledReason", { reason: user.disabledReason })}</p>
        )}
        <dl className="admin-stats admin-stats-small">
          <Stat label={t("admin.users.memberUntil")} value={<MembershipText user={user} />} testId="user-member" />
          <Stat label={t("admin.users.beans")} value={formatCount(user.beanBalance)} testId="user-beans" />
          <Stat
            label={t("admin.users.cardTime")}
            value={formatDurationText(t, user.cardSecondsLeft)}
            testId="user-card"
          />
          <Stat label={t("admin.users.storage")} value={formatSize(user.storageBytes)} testId="user-storage" />
          <Stat label={t("admin.users.records")} value={formatCount(user.recordCount)} />
          <Stat label={t("admin.users.voices")} value={formatCount(user.voiceCount)} />
          <Stat label={t("admin.users.orderCount")} value={formatCount(user.orderCount)} />
          <Stat label={t("admin.users.sessions")} value={formatCount(user.sessions)} />
          <Stat label={t("admin.users.registered")} value={formatInstant(user.createdAt)} />
          <Stat label={t("admin.users.lastLogin")} value={formatInstant(user.lastLoginAt) || "—"} />
          <Stat label={t("admin.users.invite")} value={user.inviteCode || "—"} />
          <Stat
            label={t("admin.users.invitedBy")}
            value={user.invitedById ? <Link to={adminPath("users", user.invitedById)}>#{user.invitedById}</Link> : "—"}
          />
        </dl>
      </AdminSection>
      <div className="admin-grid admin-grid-wide">
        <CardsSection user={user} />
        <GrantsSection user={user} />
      </div>
      <LedgerSection userId={user.id} />
      <OrdersSection user={user} />
    </>
  );
}

function CardsSection({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  return (
    <AdminSection title={t("admin.users.cards")} testId="user-cards">
      {user.cards.length === 0 ? (
        <EmptyState text={t("table.empty")} />
      ) : (
        <div className="paged-table-scroll">
          <table className="paged-table">
            <caption className="sr-only">{t("admin.users.cards")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.users.cardSeconds")}</th>
                <th scope="col">{t("admin.users.remaining")}</th>
                <th scope="col">{t("admin.users.expiresAt")}</th>
                <th scope="col">{t("admin.users.source")}</th>
              </tr>
            </thead>
            <tbody>
              {user.cards.map((c) => (
                <tr key={c.id}>
                  <td>{formatDurationText(t, c.seconds)}</td>
                  <td>{formatDurationText(t, c.remaining)}</td>
                  <td className="admin-nowrap">
                    {formatInstant(c.expiresAt)} {c.expired && <Tag tone="off">{t("admin.users.expired")}</Tag>}
                  </td>
                  <td>
                    {c.source} <span className="muted admin-mono">{c.refId}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminSection>
  );
}

function GrantsSection({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  return (
    <AdminSection title={t("admin.users.grants")} testId="user-grants">
      {user.grants.length === 0 ? (
        <EmptyState text={t("table.empty")} />
      ) : (
        <ul className="admin-list">
          {user.grants.map((g) => (
            <li key={g.id}>
              <strong>
                {t(`admin.users.storedKinds.${g.kind}`, {
                  amount: g.kind === "card_seconds" ? formatDurationText(t, g.amount) : formatCount(g.amount),
                })}
              </strong>
              <span className="muted"> · {formatInstant(g.createdAt)}</span>
              <div className="muted">{g.reason}</div>
            </li>
          ))}
        </ul>
      )}
    </AdminSection>
  );
}

function LedgerSection({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const table = useTableState({ sort: "createdAt" }, "beans");
  const ledger = useBeanLedger(userId, table.query);
  const columns: PagedColumn<AdminBeanEntry>[] = [
    {
      id: "time",
      header: t("admin.field.createdAt"),
      sort: "createdAt",
      cell: (e) => <span className="admin-nowrap">{formatInstant(e.createdAt)}</span>,
    },
    {
      id: "amount",
      header: t("admin.users.amount"),
      numeric: true,
      cell: (e) => (
        <span className={e.amount < 0 ? "danger-text" : undefined}>{e.amount > 0 ? `+${e.amount}` : e.amount}</span>
      ),
    },
    { id: "balance", header: t("admin.users.balanceAfter"), numeric: true, cell: (e) => formatCount(e.balanceAfter) },
    {
      id: "reason",
      header: t("admin.users.ledgerReason"),
      cell: (e) => (
        <>
          {e.reason} <span className="muted admin-mono">{e.refId}</span>
        </>
      ),
    },
  ];
  return (
    <AdminSection title={t("admin.users.ledger")} testId="user-ledger">
      <PagedTable
        caption={t("admin.users.ledger")}
        testId="ledger-table"
        columns={columns}
        rowKey={(e) => e.id}
        result={ledger}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
    </AdminSection>
  );
}

function OrdersSection({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  return (
    <AdminSection
      title={t("admin.users.orders")}
      actions={
        <Link to={`${adminPath("orders")}?user=${user.id}`} className="btn btn-ghost btn-sm">
          {t("admin.users.allOrders")} ({user.orderCount})
        </Link>
      }
      testId="user-orders"
    >
      {user.orders.length === 0 ? (
        <EmptyState text={t("table.empty")} />
      ) : (
        <div className="paged-table-scroll">
          <table className="paged-table">
            <caption className="sr-only">{t("admin.users.orders")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.orders.orderNumber")}</th>
                <th scope="col">{t("admin.orders.goods")}</th>
                <th scope="col" className="num">
                  {t("admin.orders.amount")}
                </th>
                <th scope="col">{t("admin.orders.tradeStatus")}</th>
                <th scope="col">{t("admin.orders.createdAt")}</th>
              </tr>
            </thead>
            <tbody>
              {user.orders.map((o) => (
                <tr key={o.orderNumber}>
                  <td>
                    <Link className="admin-mono" to={`${adminPath("orders")}?orderNumber=${o.orderNumber}`}>
                      {o.orderNumber}
                    </Link>
                  </td>
                  <td>{o.goodsName}</td>
                  <td className="num">{formatYuan(o.amountFen)}</td>
                  <td>
                    <OrderStatusTag tradeStatus={o.tradeStatus} refunded={o.refundedAt !== null} />
                  </td>
                  <td className="admin-nowrap">{formatInstant(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminSection>
  );
}
