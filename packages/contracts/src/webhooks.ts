import { z } from "zod";
import { zFlag, zId, zText } from "./common.ts";
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from "./webhook-constants.ts";

/**
 * Webhooks (docs/integrators.md "Webhooks"): a user's endpoints under /voice_yuelu/api/v1/webhooks/…,
 * an operator's (every user's events) under /voice_yuelu/admin/webhooks. Times are epoch seconds.
 */

const urlReason = "must be an http(s) URL";
/** An absolute http(s) URL; where it points is checked by the server (no private addresses). */
export const zWebhookUrl = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(WEBHOOK_URL_MAX, `at most ${WEBHOOK_URL_MAX} characters`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, urlReason);

/** Event types as a JSON array or "a,b" (form bodies); at least one, each once. */
export const zWebhookEvents = z.preprocess(
  (value) => (typeof value === "string" ? value.split(",").map((s) => s.trim()) : value),
  z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .min(1, "at least 1 items")
    .max(WEBHOOK_EVENT_TYPES.length)
    .transform((events) => [...new Set(events)]),
);

export const ZWebhookCreateBody = z.object({
  url: zWebhookUrl,
  events: zWebhookEvents,
  description: zText({ max: WEBHOOK_DESCRIPTION_MAX }).default(""),
});
export type WebhookCreateBody = z.infer<typeof ZWebhookCreateBody>;

export const ZWebhookUpdateBody = z.object({
  id: zId,
  url: zWebhookUrl.optional(),
  events: zWebhookEvents.optional(),
  description: zText({ max: WEBHOOK_DESCRIPTION_MAX }).optional(),
  enabled: zFlag.optional(),
});
export type WebhookUpdateBody = z.infer<typeof ZWebhookUpdateBody>;

export const ZWebhookIdBody = z.object({ id: zId });

export const ZWebhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  createTime: z.number().int(),
  updateTime: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** The secret is in this answer and in …/secret only: never in lists. */
export const ZWebhookCreated = ZWebhookEndpoint.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof ZWebhookCreated>;
export const ZWebhookSecret = z.object({ id: z.number().int(), secret: z.string() });
export type WebhookSecret = z.infer<typeof ZWebhookSecret>;
export const ZWebhookDeleted = z.object({ id: z.number().int() });

export const ZWebhookList = z.object({
  total: z.number().int(),
  limit: z.number().int(),
  list: z.array(ZWebhookEndpoint),
});
export type WebhookList = z.infer<typeof ZWebhookList>;

export const ZWebhookAttempt = z.object({
  attempt: z.number().int(),
  time: z.number().int(),
  durationMs: z.number().int(),
  /** null: no answer (timeout, connection refused, address refused) */
  statusCode: z.number().int().nullable(),
  /** the first KB of the receiver's answer */
  responseBody: z.string(),
  error: z.string(),
});
export type WebhookAttempt = z.infer<typeof ZWebhookAttempt>;

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  /** the webhook-id header: the same on every attempt and re-send */
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** epoch seconds of the next attempt, 0 when none is due */
  nextAttemptTime: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string(),
  createTime: z.number().int(),
  /** epoch seconds it was delivered or given up, 0 while pending */
  finishTime: z.number().int(),
  payload: z.unknown(),
  /** newest first */
  attemptList: z.array(ZWebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;

export const WEBHOOK_DELIVERIES_PAGE_MAX = 50;
export const ZWebhookDeliveriesQuery = z.object({
  id: zId,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(WEBHOOK_DELIVERIES_PAGE_MAX).default(20),
});
export type WebhookDeliveriesQuery = z.infer<typeof ZWebhookDeliveriesQuery>;
export const ZWebhookDeliveries = z.object({
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(ZWebhookDelivery),
});
export type WebhookDeliveries = z.infer<typeof ZWebhookDeliveries>;

export const ZWebhookResendBody = z.object({ deliveryId: zId });
