/**
 * Webhooks (docs/integrators.md "Webhooks"), zod-free: the web app's settings use the same list.
 * These names are a contract with integrators' receivers: add new ones, never rename.
 */
export const WEBHOOK_EVENT_TYPES = [
  "transcription.finished",
  "transcription.failed",
  "speech.ready",
  "speech.failed",
  "voice.ready",
  "voice.failed",
  "order.paid",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only on request ("send a test event"), to one endpoint: never subscribed to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/** Endpoints per user, and operator-wide endpoints in all. */
export const WEBHOOKS_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 100;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
