import type { AdminUserRow } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Tag } from "@/components/ui/tag.tsx";
import { formatDate } from "../lib/format.ts";
import { userStatus } from "../lib/users.ts";

/** An account's status as a tag: active, disabled, being deleted. */
export function UserStatusTag({ user }: { user: Pick<AdminUserRow, "disabledAt" | "deleteRequestedAt"> }) {
  const { t } = useTranslation();
  const status = userStatus(user);
  return (
    <Tag tone={status === "active" ? "ok" : "off"} testId="user-status">
      {t(`admin.users.statuses.${status}`)}
    </Tag>
  );
}

/** The membership: until when, lapsed when, or none. */
export function MembershipText({ user }: { user: Pick<AdminUserRow, "isMember" | "memberUntil"> }) {
  const { t } = useTranslation();
  if (user.isMember) return <Tag tone="brand">{formatDate(user.memberUntil)}</Tag>;
  if (user.memberUntil)
    return <span className="muted">{t("admin.users.lapsed", { date: formatDate(user.memberUntil) })}</span>;
  return <span className="muted">{t("admin.users.notMember")}</span>;
}
