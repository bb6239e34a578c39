import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookList,
  WebhookSecret,
} from "@yuelu/contracts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";

/**
 * Operator-wide webhooks (apps/api/src/modules/admin/webhooks.ts, docs/integrators.md "Webhooks"):
 * endpoints that receive every user's events. Every action is audited by the server.
 */

const AREA = "webhooks";
const post = <T>(action: Parameters<typeof adminPaths.webhookAction>[0], data: object, silent = false) =>
  adminApi<T>(adminPaths.webhookAction(action), { method: "POST", data, silent });

/** GET /admin/webhooks: every operator-wide endpoint (at most `limit`), without secrets. */
export function useAdminWebhooks() {
  return useQuery({
    queryKey: adminKeys.list(AREA, {}),
    queryFn: () => adminApi<WebhookList>(adminPaths.webhooks, { silent: true }),
  });
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: adminKeys.area(AREA) });
}

export type WebhookCreateForm = Omit<WebhookCreateBody, "events"> & { events: string[] };

/** POST /admin/webhooks: the answer carries the signing secret. Refusals (10002) are shown in the form. */
export function useCreateAdminWebhook() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (body: WebhookCreateForm) =>
      adminApi<WebhookCreated>(adminPaths.webhooks, { method: "POST", data: body, silent: true }),
    onSuccess: refresh,
  });
}

/** POST /admin/webhooks/update {id, enabled}. */
export function useToggleAdminWebhook() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (body: { id: number; enabled: boolean }) => post<WebhookEndpoint>("update", body),
    onSuccess: refresh,
  });
}

/** POST /admin/webhooks/delete {id}. */
export function useDeleteAdminWebhook() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (id: number) => post<{ id: number }>("delete", { id }),
    onSuccess: refresh,
  });
}

/** POST /admin/webhooks/secret {id}: the signing secret again (the server audits each reading). */
export function useAdminWebhookSecret() {
  return useSubmitMutation({ mutationFn: (id: number) => post<WebhookSecret>("secret", { id }) });
}

/** GET /admin/webhooks/deliveries: a page of an endpoint's deliveries, newest first; refreshed while one waits. */
export function useAdminWebhookDeliveries(endpointId: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: adminKeys.list(AREA, { deliveries: endpointId, page, pageSize }),
    queryFn: () =>
      adminApi<WebhookDeliveries>(adminPaths.webhookDeliveries, {
        params: { id: endpointId, page, pageSize },
        silent: true,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((d) => d.status === "pending") ? 3000 : false),
  });
}

/** POST /admin/webhooks/resend {deliveryId}: the same message (same webhook-id) again. */
export function useResendAdminDelivery() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (deliveryId: number) => post<WebhookDelivery>("resend", { deliveryId }),
    onSuccess: refresh,
  });
}

/** POST /admin/webhooks/test {id}: a webhook.test event to that endpoint only. */
export function useTestAdminWebhook() {
  const refresh = useRefresh();
  return useSubmitMutation({
    mutationFn: (id: number) => post<WebhookDelivery>("test", { id }),
    onSuccess: refresh,
  });
}
