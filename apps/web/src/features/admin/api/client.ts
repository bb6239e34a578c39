import { api, type RequestOptions } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * Calls /voice_yuelu/admin/<path> (docs/admin.md) and unwraps the envelope like every call of the
 * app; failures toast through the shared client unless `silent`.
 */
export function adminApi<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return api<T>(`/admin${path}`, options);
}

/**
 * The console's query keys. They sit under ["me"], so signing out (or in as someone else) drops
 * what an operator saw; each area's lists are below its own key, which its mutations invalidate.
 */
const all = [...queryKeys.me, "admin"] as const;
export const adminKeys = {
  all,
  me: [...all, "me"] as const,
  area: (area: string) => [...all, area] as const,
  list: (area: string, params: object) => [...all, area, "list", params] as const,
  item: (area: string, id: string | number) => [...all, area, "item", id] as const,
};

/** Query-string parameters from a table's state: empty filters are left out. */
export function queryParams(params: object): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    out[key] = typeof value === "number" ? value : String(value);
  }
  return out;
}
