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
  "transcript.updated",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent only on request ("send a test event"), to one endpoint: never subscribed to. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

/**
 * Test events and re-sends one user (an operator: for their own and the operator-wide endpoints) may ask
 * for per hour, together: each queues a delivery that may make up to 11 attempts on the target.
 */
export const WEBHOOK_MANUAL_SENDS_PER_HOUR = 20;

/** Endpoints per user, and operator-wide endpoints in all. */
export const WEBHOOKS_MAX = 10;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 100;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
