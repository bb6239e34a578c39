import { JOBS } from "@yuelu/contracts";
import { type DomainContext, dueWebhookDeliveries } from "@yuelu/domain";
import { enqueue, type QueueBackend } from "@yuelu/runtime";

/**
 * Putting webhook deliveries on their queue (the job table's `webhook` row). The outbox rows are the
 * truth, so a lost job loses nothing: notices on the bus queue new deliveries at once, and
 * housekeeping (this row's stuck rule) queues whatever is due and held by nobody.
 */

/**
 * Queues each delivery's attempt `delayMs` from now. One due now (a re-send) whose job still waits
 * for its retry is moved up, not added beside it.
 */
export async function queueDeliveries(
  queues: Pick<QueueBackend, "queue">,
  deliveries: readonly { id: number; attempt: number }[],
  delayMs = 0,
): Promise<void> {
  for (const { id, attempt } of deliveries) {
    const payload = { deliveryId: id, attempt };
    const existing =
      delayMs === 0 ? await queues.queue(JOBS.webhook.queue).getJob(JOBS.webhook.jobId(payload)) : undefined;
    if (existing && (await existing.isDelayed())) {
      await existing.promote();
      continue;
    }
    await enqueue(queues, JOBS.webhook, payload, { delay: delayMs });
  }
}

/** Queues every due delivery that no worker holds; returns how many. */
export async function requeueDueDeliveries(
  domain: Pick<DomainContext, "db" | "clock">,
  queues: Pick<QueueBackend, "queue">,
): Promise<number> {
  const due = await dueWebhookDeliveries(domain);
  await queueDeliveries(queues, due);
  return due.length;
}
