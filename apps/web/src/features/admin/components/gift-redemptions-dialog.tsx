import type { AdminGiftCode, AdminGiftRedemption } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Dialog } from "@/components/ui/dialog.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { useGiftRedemptions } from "../api/gifts.ts";
import { adminPath } from "../lib/areas.ts";
import { formatInstant } from "../lib/format.ts";

/**
 * Who redeemed one gift code (GET /admin/gift-codes/:id/redemptions): each user, linked to their
 * page, and when; paged by the server, newest first (the header sorts by time either way).
 */
export function GiftRedemptionsDialog({ code, onClose }: { code: AdminGiftCode | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={code !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("admin.gifts.redemptionsTitle", { code: code?.packCode ?? "" })}
      wide
    >
      {code && <Redemptions key={code.id} code={code} onClose={onClose} />}
    </Dialog>
  );
}

function Redemptions({ code, onClose }: { code: AdminGiftCode; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<TableQuery>({ page: 1, pageSize: 10, sort: "redeemedAt", order: "desc" });
  const redemptions = useGiftRedemptions(code.id, query);
  const columns: PagedColumn<AdminGiftRedemption>[] = [
    {
      id: "user",
      header: t("admin.field.user"),
      cell: (r) => (
        <Link to={adminPath("users", r.userId)} onClick={onClose}>
          #{r.userId}
        </Link>
      ),
    },
    { id: "phone", header: t("admin.field.phone"), cell: (r) => <span className="admin-mono">{r.phone || "—"}</span> },
    {
      id: "nickName",
      header: t("admin.field.nickName"),
      cell: (r) => displayNickname(r.nickName, i18n.language) || "—",
    },
    {
      id: "redeemedAt",
      header: t("admin.gifts.redeemedAt"),
      sort: "redeemedAt",
      cell: (r) => <span className="admin-nowrap">{formatInstant(r.redeemedAt)}</span>,
    },
  ];
  return (
    <div className="admin-form" data-testid="gift-redemptions">
      <p className="muted">{t("admin.gifts.usesOf", { uses: code.redeemedCount, max: code.maxRedemptions })}</p>
      <PagedTable
        caption={t("admin.gifts.redemptionsTitle", { code: code.packCode })}
        testId="redemptions-table"
        columns={columns}
        rowKey={(r) => `${r.userId}:${r.redeemedAt}`}
        rowTestId={(r) => `redemption-${r.userId}`}
        result={redemptions}
        sort={query.sort}
        order={query.order}
        onSort={() => setQuery((q) => ({ ...q, order: q.order === "desc" ? "asc" : "desc", page: 1 }))}
        empty={<p className="muted">{t("admin.gifts.noRedemptions")}</p>}
        pager={{
          ...query,
          onPage: (page) => setQuery((q) => ({ ...q, page })),
          onPageSize: (pageSize) => setQuery((q) => ({ ...q, pageSize, page: 1 })),
        }}
      />
    </div>
  );
}
