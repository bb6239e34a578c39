import { paths } from "@/config/paths.ts";

/** The console's areas, in the side navigation's order; `path` is below /admin ('' is the overview). */
export const ADMIN_AREAS = [
  { id: "overview", path: "", icon: "◷" },
  { id: "catalogue", path: "catalogue", icon: "¥" },
  { id: "gifts", path: "gifts", icon: "🎁" },
  { id: "messages", path: "messages", icon: "✉" },
  { id: "content", path: "content", icon: "?" },
  { id: "users", path: "users", icon: "☺" },
  { id: "orders", path: "orders", icon: "≡" },
  { id: "webhooks", path: "webhooks", icon: "⇄" },
  { id: "system", path: "system", icon: "⚙" },
  { id: "audit", path: "audit", icon: "✎" },
] as const;

export type AdminAreaId = (typeof ADMIN_AREAS)[number]["id"];

/** The address of an area (and of something inside it: adminPath('users', 7) is /admin/users/7). */
export function adminPath(area: AdminAreaId, ...rest: (string | number)[]): string {
  const found = ADMIN_AREAS.find((a) => a.id === area);
  return [paths.admin, found?.path, ...rest.map(String)].filter(Boolean).join("/");
}

/** The area a console address is in: the first segment after /admin. */
export function areaOf(pathname: string): AdminAreaId {
  const segment = pathname.slice(paths.admin.length).split("/").filter(Boolean)[0] ?? "";
  return ADMIN_AREAS.find((a) => a.path === segment)?.id ?? "overview";
}
