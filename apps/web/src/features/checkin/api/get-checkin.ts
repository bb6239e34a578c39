import { queryOptions } from "@tanstack/react-query";
import type { CheckInInfo } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Spec §3 check-in info. Spec §8: failures of reward calls are only logged. */
export const checkinQuery = queryOptions({
  queryKey: queryKeys.checkin,
  queryFn: () => api<CheckInInfo>("/api/v1/store/sign_info", { method: "POST", silent: true }),
});
