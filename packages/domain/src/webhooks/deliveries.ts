import {
  StatusCode,
  WEBHOOK_TEST_EVENT,
  type WebhookDeliveries,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
} from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";
import { ownWebhookEndpoint } from "./endpoints.ts";
import { newMessageId, webhookPayload } from "./outbox.ts";
import { auditOperator, ownerScope, type WebhookOwner } from "./owner.ts";
import { deliveryView } from "./views.ts";

/** An endpoint's deliveries: the log, re-sending, a test event (docs/integrators.md "Webhooks"). */

type Ctx = Pick<DomainContext, "db" | "events" | "clock">;

/** One page of an endpoint's deliveries, newest first, each with its attempts. */
export async function webhookDeliveries(
  ctx: Pick<Ctx, "db">,
  owner: WebhookOwner,
  q: WebhookDeliveriesQuery,
): Promise<WebhookDeliveries> {
  const endpoint = await ownWebhookEndpoint(ctx.db, owner, q.id);
  const where = { endpointId: endpoint.id };
  const [rows, total] = await Promise.all([
    ctx.db.webhookDelivery.findMany({
      where,
      orderBy: { id: "desc" },
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      include: { attemptLog: true },
    }),
    ctx.db.webhookDelivery.count({ where }),
  ]);
  return { total, page: q.page, pageSize: q.pageSize, list: rows.map(deliveryView) };
}

/**
 * Sends a delivery again, now, with a fresh day of retries — delivered, failed or still waiting for
 * its next attempt. Same webhook-id and body: a receiver that handled it already may drop it.
 */
export async function resendWebhookDelivery(
  ctx: Ctx,
  owner: WebhookOwner,
  deliveryId: number,
): Promise<WebhookDelivery> {
  return transact(ctx, async (tx, after) => {
    const found = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, endpoint: ownerScope(owner) },
      select: { id: true },
    });
    if (!found) throw new AppError(StatusCode.RecordNotFound);
    await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${found.id}::int FOR UPDATE`;
    const row = await tx.webhookDelivery.update({
      where: { id: found.id },
      data: {
        status: "pending",
        round: 0,
        nextAttemptAt: ctx.clock.now(),
        finishedAt: null,
        // a worker sending it right now keeps its claim: its outcome counts as this re-send's first try
      },
      include: { attemptLog: true },
    });
    await auditOperator(tx, owner, { action: "webhook.resend", target: `webhook-delivery:${row.id}` });
    after.publish({
      type: "webhooks.due",
      userId: row.userId ?? 0,
      deliveries: [{ id: row.id, attempt: row.attempts + 1 }],
    });
    return deliveryView(row);
  });
}

/** Sends a "webhook.test" event to one endpoint (subscribed to it or not), through the same outbox. */
export async function sendTestWebhook(ctx: Ctx, owner: WebhookOwner, endpointId: number): Promise<WebhookDelivery> {
  return transact(ctx, async (tx, after) => {
    const endpoint = await ownWebhookEndpoint(tx, owner, endpointId);
    const now = ctx.clock.now();
    const data = {
      endpointId: endpoint.id,
      ...(owner.kind === "user" ? { userId: owner.userId } : {}),
      message: "A test event from Yuelu: your endpoint receives and verifies webhooks.",
    };
    const row = await tx.webhookDelivery.create({
      data: {
        endpointId: endpoint.id,
        messageId: newMessageId(),
        eventType: WEBHOOK_TEST_EVENT,
        userId: endpoint.userId,
        payload: webhookPayload(WEBHOOK_TEST_EVENT, data, now),
        nextAttemptAt: now,
      },
      include: { attemptLog: true },
    });
    await auditOperator(tx, owner, { action: "webhook.test", target: `webhook:${endpoint.id}` });
    after.publish({ type: "webhooks.due", userId: row.userId ?? 0, deliveries: [{ id: row.id, attempt: 1 }] });
    return deliveryView(row);
  });
}
