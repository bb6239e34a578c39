import type { AdminUserRow } from "@yuelu/contracts";

export type UserStatus = "active" | "disabled" | "deleting";

/** Where an account stands: waiting for its deletion, disabled by an operator, or active. */
export function userStatus(user: Pick<AdminUserRow, "disabledAt" | "deleteRequestedAt">): UserStatus {
  if (user.deleteRequestedAt) return "deleting";
  if (user.disabledAt) return "disabled";
  return "active";
}

/** What a phone-or-id search box holds: digits only, 11 at most (contracts' ZAdminUserQuery.q). */
export function userSearchInput(value: string): string {
  return value.replace(/\D/g, "").slice(0, 11);
}
