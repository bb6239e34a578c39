import type { DomainContext } from "@yuelu/domain";
import type { Config, DomainEvent, QueueBackend } from "@yuelu/runtime";
import { deliverWebhook } from "./jobs/deliver-webhook.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { startTaskWorker } from "./task-worker.ts";
import { queueDeliveries, requeueDueDeliveries } from "./webhooks/queue.ts";

export interface WebhookWorkerOptions {
  /** deliveries at once per process (they mostly wait on the network) */
  concurrency?: number;
  /** waits between failed attempts (default: about a day, WEBHOOK_RETRY_SCHEDULE_MS) */
  schedule?: readonly number[];
  timeoutMs?: number;
}

export interface WebhookWorkerContext {
  domain: Pick<DomainContext, "db" | "clock">;
  config: Pick<Config, "PUBLIC_URL" | "WEBHOOK_ALLOW_PRIVATE">;
  queues: QueueBackend;
  /** the platform's event bus: its "webhooks.due" notices queue new deliveries at once */
  events?: { subscribe?(handler: (event: DomainEvent) => void): void };
  log: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

/**
 * The "webhooks" queue: job "deliver-webhook" `{deliveryId, attempt}`, one per attempt (the job table's
 * `webhook` row), its retries ours (the delivery row holds the state; BullMQ only carries the next
 * attempt, delayed). The outbox rows are the truth, so nothing is lost when a job is: a notice on the bus
 * queues new deliveries at once, and `requeueDue` (at start, and from housekeeping) queues whatever is
 * due and held by nobody (webhooks/queue.ts).
 */
export function startWebhookWorker(ctx: WebhookWorkerContext, options: WebhookWorkerOptions = {}) {
  const { domain, config, queues, log } = ctx;
  let stopped = false;

  const worker = startTaskWorker(
    { queues, log },
    WORKER_JOBS.webhook,
    async (job) => {
      const result = await deliverWebhook(domain, job, {
        publicUrl: config.PUBLIC_URL,
        allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
        schedule: options.schedule,
        timeoutMs: options.timeoutMs,
      });
      if (result.status === "sent") {
        const { statusCode, error } = result.outcome;
        if (result.next)
          await queueDeliveries(queues, [{ id: job.deliveryId, attempt: result.next.attempt }], result.next.delayMs);
        log.info({ ...job, statusCode, error: error || undefined, nextInMs: result.next?.delayMs }, "webhook attempt");
      }
      return result.status;
    },
    { concurrency: options.concurrency ?? 10 },
  );

  ctx.events?.subscribe?.((event) => {
    if (stopped || event.type !== "webhooks.due") return;
    queueDeliveries(queues, event.deliveries).catch((error) =>
      log.error({ err: error }, "could not queue webhook deliveries"),
    );
  });

  return {
    worker,
    /** Queues every due delivery that no worker holds; returns how many. */
    requeueDue: () => requeueDueDeliveries(domain, queues),
    /** stops hearing notices (closing the queue backend stops the worker itself) */
    stop() {
      stopped = true;
    },
  };
}
