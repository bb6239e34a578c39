import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";

/** Rows as the API shows them (times in epoch seconds; the secret never). */

const seconds = (at: Date | null | undefined) => (at ? Math.floor(at.getTime() / 1000) : 0);

export function endpointView(row: Prisma.WebhookEndpointGetPayload<object>): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    createTime: seconds(row.createdAt),
    updateTime: seconds(row.updatedAt),
  };
}

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: { attemptLog: true } }>;

export function deliveryView(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status as WebhookDeliveryStatus,
    attempts: row.attempts,
    nextAttemptTime: row.status === "pending" ? seconds(row.nextAttemptAt) : 0,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createTime: seconds(row.createdAt),
    finishTime: seconds(row.finishedAt),
    payload: row.payload,
    attemptList: [...row.attemptLog]
      .sort((a, b) => b.attempt - a.attempt || b.id - a.id)
      .map((a) => ({
        attempt: a.attempt,
        time: seconds(a.createdAt),
        durationMs: a.durationMs,
        statusCode: a.statusCode,
        responseBody: a.responseBody,
        error: a.error,
      })),
  };
}
