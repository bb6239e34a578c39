import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { AdminPage } from "@yuelu/contracts";
import { adminApi, adminKeys, queryParams } from "./client.ts";

/**
 * A server-paged console table (docs/admin.md): GET `path` with the table's page, size, sort, order
 * and filters; the rows stay on screen while the next page loads.
 */
export function useAdminList<Row, Page extends AdminPage<Row> = AdminPage<Row>>(
  area: string,
  path: string,
  query: object,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: adminKeys.list(area, { path, ...query }),
    queryFn: () => adminApi<Page>(path, { params: queryParams(query) }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
