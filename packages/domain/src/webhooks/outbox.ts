import { randomBytes } from "node:crypto";
import type { Prisma } from "@yuelu/db";
import type { DomainEvent } from "@yuelu/runtime";
import type { Tx } from "../transaction.ts";
import { webhookEventOf } from "./events.ts";

/** The webhook-id of a new delivery: "msg_" + 16 random bytes, unique across installs for any practical purpose. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/** What a receiver gets (docs/integrators.md): the same body on every attempt. */
export function webhookPayload(type: string, data: Record<string, unknown>, at: Date): Prisma.InputJsonObject {
  return { type, timestamp: at.toISOString(), data } as Prisma.InputJsonObject;
}

/**
 * The outbox, written by transact() in the transaction that caused the events: one delivery per
 * webhook-worthy event and endpoint subscribed to it (the user's own and the operators'). Committed
 * with the change or not at all, so a crash after the commit loses nothing — the rows wait for a
 * worker. Returns the notices to publish once committed, so workers queue them at once.
 */
export async function writeWebhookOutbox(tx: Tx, events: readonly DomainEvent[]): Promise<DomainEvent[]> {
  const notices: DomainEvent[] = [];
  for (const event of events) {
    const hook = webhookEventOf(event);
    if (!hook) continue;
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { enabled: true, events: { has: hook.type }, OR: [{ userId: hook.userId }, { userId: null }] },
      select: { id: true },
    });
    if (endpoints.length === 0) continue;
    const now = new Date();
    const deliveries = await tx.webhookDelivery.createManyAndReturn({
      data: endpoints.map((endpoint) => ({
        endpointId: endpoint.id,
        messageId: newMessageId(),
        eventType: hook.type,
        userId: hook.userId,
        payload: webhookPayload(hook.type, hook.data, now),
        nextAttemptAt: now,
      })),
      select: { id: true },
    });
    notices.push({
      type: "webhooks.due",
      userId: hook.userId,
      deliveries: deliveries.map((d) => ({ id: d.id, attempt: 1 })),
    });
  }
  return notices;
}
