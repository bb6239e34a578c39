import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  WebhookCreateBody,
  WebhookCreated,
  WebhookDeliveries,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookList,
  WebhookSecret,
  WebhookUpdateBody,
} from "@yuelu/contracts";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** The user's webhook endpoints, their deliveries, and what can be done to them (docs/integrators.md). */

export function useWebhooks() {
  return useQuery({
    queryKey: queryKeys.integrations.webhooks,
    queryFn: () => api<WebhookList>("/api/v1/webhooks/list", { silent: true }),
    enabled: useAccountReady(),
  });
}

function useRefreshWebhooks() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.integrations.webhooks });
}

export function useCreateWebhook() {
  const refresh = useRefreshWebhooks();
  return useSubmitMutation({
    mutationFn: (body: Omit<WebhookCreateBody, "events"> & { events: string[] }) =>
      api<WebhookCreated>("/api/v1/webhooks/create", { method: "POST", data: body }),
    onSuccess: refresh,
  });
}

export function useUpdateWebhook() {
  const refresh = useRefreshWebhooks();
  return useSubmitMutation({
    mutationFn: (body: Pick<WebhookUpdateBody, "id" | "enabled">) =>
      api<WebhookEndpoint>("/api/v1/webhooks/update", { method: "POST", data: body }),
    onSuccess: refresh,
  });
}

export function useDeleteWebhook() {
  const refresh = useRefreshWebhooks();
  return useSubmitMutation({
    mutationFn: (id: number) => api<{ id: number }>("/api/v1/webhooks/delete", { method: "POST", data: { id } }),
    onSuccess: refresh,
  });
}

/** The signing secret, on request (it is never in the list). */
export function useWebhookSecret() {
  return useSubmitMutation({
    mutationFn: (id: number) => api<WebhookSecret>("/api/v1/webhooks/secret", { method: "POST", data: { id } }),
  });
}

/** One page of an endpoint's deliveries; refreshed while one is still waiting for an attempt. */
export function useWebhookDeliveries(endpointId: number, page: number, pageSize: number) {
  return useQuery({
    queryKey: queryKeys.integrations.deliveries(endpointId, page),
    queryFn: () =>
      api<WebhookDeliveries>("/api/v1/webhooks/deliveries", {
        params: { id: endpointId, page, pageSize },
        silent: true,
      }),
    enabled: endpointId > 0,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.list.some((d) => d.status === "pending") ? 3000 : false),
  });
}

function useRefreshDeliveries(endpointId: number) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [...queryKeys.integrations.webhooks, endpointId, "deliveries"] });
}

export function useResendDelivery(endpointId: number) {
  const refresh = useRefreshDeliveries(endpointId);
  return useSubmitMutation({
    mutationFn: (deliveryId: number) =>
      api<WebhookDelivery>("/api/v1/webhooks/resend", { method: "POST", data: { deliveryId } }),
    onSuccess: refresh,
  });
}

export function useSendTestWebhook(endpointId: number) {
  const refresh = useRefreshDeliveries(endpointId);
  return useSubmitMutation({
    mutationFn: () => api<WebhookDelivery>("/api/v1/webhooks/test", { method: "POST", data: { id: endpointId } }),
    onSuccess: refresh,
  });
}
