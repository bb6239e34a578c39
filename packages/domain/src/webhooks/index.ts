/** Webhooks (docs/integrators.md "Webhooks"): endpoints, the outbox, delivery state, the SSRF rule. */

export { resendWebhookDelivery, sendTestWebhook, webhookDeliveries } from "./deliveries.ts";
export {
  type AttemptOutcome,
  type ClaimedDelivery,
  claimWebhookDelivery,
  dueWebhookDeliveries,
  purgeOldWebhookDeliveries,
  recordWebhookAttempt,
  WEBHOOK_DELIVERY_KEEP_DAYS,
  WEBHOOK_RETRY_SCHEDULE_MS,
} from "./delivery-state.ts";
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  webhookSecret,
} from "./endpoints.ts";
export { type WebhookEvent, webhookEventOf } from "./events.ts";
export type { WebhookOwner } from "./owner.ts";
export { assertWebhookTarget, hostOf, isPublicAddress, publicOnlyLookup, RefusedAddressError } from "./target.ts";
