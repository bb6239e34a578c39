import type { AdminUserRow } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { displayNickname } from "@/utils/nickname.ts";
import { type UserFilter, useUsers } from "../api/users.ts";
import { adminPath } from "../lib/areas.ts";
import { formatCount, formatInstant } from "../lib/format.ts";
import { userSearchInput } from "../lib/users.ts";
import { MembershipText, UserStatusTag } from "./user-tags.tsx";

/** The users: found by phone (or its start) or id, filtered by role and status, sorted on the server. */
export function UsersTable() {
  const { t, i18n } = useTranslation();
  const table = useTableState<UserFilter>({ sort: "createdAt", filters: ["q", "role", "status"] });
  const users = useUsers(table.query);

  const columns: PagedColumn<AdminUserRow>[] = [
    {
      id: "id",
      header: t("admin.field.id"),
      sort: "id",
      numeric: true,
      cell: (u) => (
        <Link to={adminPath("users", u.id)} data-testid={`user-link-${u.id}`}>
          {u.id}
        </Link>
      ),
    },
    { id: "phone", header: t("admin.field.phone"), cell: (u) => u.phone ?? "—" },
    { id: "nickName", header: t("admin.field.nickName"), cell: (u) => displayNickname(u.nickName, i18n.language) },
    {
      id: "role",
      header: t("admin.users.role"),
      cell: (u) => <Tag tone={u.role === "admin" ? "brand" : undefined}>{t(`admin.users.roles.${u.role}`)}</Tag>,
    },
    { id: "status", header: t("admin.field.status"), cell: (u) => <UserStatusTag user={u} /> },
    {
      id: "member",
      header: t("admin.users.memberUntil"),
      sort: "memberEffectiveTime",
      cell: (u) => <MembershipText user={u} />,
    },
    {
      id: "beans",
      header: t("admin.users.beans"),
      sort: "beanBalance",
      numeric: true,
      cell: (u) => formatCount(u.beanBalance),
    },
    {
      id: "lastLogin",
      header: t("admin.users.lastLogin"),
      sort: "lastLoginAt",
      cell: (u) => <span className="admin-nowrap">{formatInstant(u.lastLoginAt) || "—"}</span>,
    },
    {
      id: "createdAt",
      header: t("admin.users.registered"),
      sort: "createdAt",
      cell: (u) => <span className="admin-nowrap">{formatInstant(u.createdAt)}</span>,
    },
  ];

  return (
    <>
      <FilterBar
        testId="users-filters"
        values={table.filters}
        onApply={(v) => table.setFilters({ ...v, q: userSearchInput(v.q ?? "") })}
        fields={[
          { name: "q", label: t("admin.users.search"), placeholder: t("admin.users.searchHint"), inputMode: "numeric" },
          {
            name: "role",
            label: t("admin.users.role"),
            type: "select",
            options: (["user", "admin"] as const).map((r) => ({ value: r, label: t(`admin.users.roles.${r}`) })),
          },
          {
            name: "status",
            label: t("admin.field.status"),
            type: "select",
            options: (["active", "disabled", "deleting"] as const).map((s) => ({
              value: s,
              label: t(`admin.users.statuses.${s}`),
            })),
          },
        ]}
      />
      <PagedTable
        caption={t("admin.users.title")}
        testId="users-table"
        columns={columns}
        rowKey={(u) => u.id}
        rowTestId={(u) => `user-${u.id}`}
        result={users}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
    </>
  );
}
